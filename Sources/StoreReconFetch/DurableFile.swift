import Foundation
import StoreReconSettings

/// Writes a file so that it is never seen half-written under its final name, and is on disk before it is
/// renamed there: a temporary name beside it, written, `fsync`ed, renamed, and the folder synced.
enum DurableFile {
  /// The mode of every file written: owner read-write, group read.
  static let mode = 0o640

  /// Writes `bytes` to `path` (its folders created). Throws a ``FetchError`` (io error) naming the path.
  static func write(_ bytes: [UInt8], to path: String) throws(FetchError) {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent()
    let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())").path
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      guard
        FileManager.default.createFile(
          atPath: temporary, contents: nil, attributes: [.posixPermissions: mode])
      else { throw CocoaError(.fileWriteNoPermission) }
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
      defer { try? handle.close() }
      try handle.write(contentsOf: Data(bytes))
      try handle.synchronize()
    } catch {
      unlink(temporary)
      throw FetchError(.ioError, "cannot write \(path): \(error.localizedDescription)")
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw FetchError(.ioError, "cannot write \(path): \(reason)")
    }
    if let directory = FileHandle(forReadingAtPath: folder.path) {
      try? directory.synchronize()
      try? directory.close()
    }
  }

  /// The bytes of `path`, or `nil` when it does not exist or cannot be read.
  static func read(_ path: String) -> [UInt8]? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return [UInt8](data)
  }
}
