import Foundation

/// Writes files so that a half-written file never exists under its final name.
package enum AtomicFile {
  /// Why a report could not be written.
  package struct WriteError: Error, CustomStringConvertible {
    package var path: String
    package var reason: String
    package var description: String { "cannot write \(path): \(reason)" }
  }

  /// The mode of every file written: owner read-write, group read, nobody else (whatever the umask).
  package static let fileMode: Int = 0o640

  /// Writes `bytes` to a temporary name beside `path` (mode ``fileMode``), then renames it into place.
  package static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw WriteError(path: directory.path, reason: "\(error.localizedDescription)")
    }
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())")
    do {
      try Data(bytes).write(to: temporary)
      try FileManager.default.setAttributes([.posixPermissions: fileMode], ofItemAtPath: temporary.path)
    } catch {
      unlink(temporary.path)
      throw WriteError(path: temporary.path, reason: "\(error.localizedDescription)")
    }
    if rename(temporary.path, path) != 0 {
      let reason = String(cString: strerror(errno))
      unlink(temporary.path)
      throw WriteError(path: path, reason: reason)
    }
  }

  /// Writes UTF-8 text atomically.
  package static func write(_ text: String, to path: String) throws(WriteError) {
    try write(Array(text.utf8), to: path)
  }
}
