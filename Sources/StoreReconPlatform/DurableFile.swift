#if canImport(Glibc)
  import Glibc
#endif

/// The project's one way to write a file: never seen half-written under its final name, and on disk
/// before it gets that name. The bytes go to a temporary name beside the file (`.NAME.tmp-PID`), are
/// written whole and `fsync`ed, the temporary file is renamed over the final name, and the folder is
/// synced so that the rename lasts too. Reports, workbooks, fetched files and the decisions file use it.
package enum DurableFile {
  /// Why a file could not be written: the path and the system's reason.
  package struct WriteError: Error, Sendable, CustomStringConvertible {
    /// The file or folder that could not be written.
    package var path: String
    /// The system's reason (`strerror`'s text).
    package var reason: String
    /// `cannot write PATH: REASON`.
    package var description: String { "cannot write \(path): \(reason)" }

    /// The error for `path` with `reason`.
    package init(path: String, reason: String) {
      self.path = path
      self.reason = reason
    }

    init(path: String, _ error: SystemError) { self.init(path: path, reason: error.description) }
  }

  /// The mode of every file written: owner read-write, group read, nobody else (whatever the umask).
  package static let mode: UInt32 = 0o640

  /// Writes `bytes` to `path`, creating its folders. `mode` is the file's mode whatever the umask; nil
  /// leaves it to the umask (as a new file gets by default).
  package static func write(_ bytes: [UInt8], to path: String, mode: UInt32? = Self.mode) throws(WriteError) {
    try createFolders(folder(of: path))
    let temporary = temporaryPath(for: path)
    do {
      let fd = try Syscall.retrying {
        open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode ?? 0o666))
      }
      defer { close(fd) }
      if let mode { _ = try Syscall.retrying { fchmod(fd, mode_t(mode)) } }
      try writeAll(bytes, to: fd)
      _ = try Syscall.retrying { fsync(fd) }
    } catch {
      unlink(temporary)
      throw WriteError(path: temporary, error)
    }
    try publish(temporary, to: path)
  }

  /// Writes UTF-8 text as ``write(_:to:mode:)`` writes bytes.
  package static func write(_ text: String, to path: String, mode: UInt32? = Self.mode) throws(WriteError) {
    try write(Array(text.utf8), to: path, mode: mode)
  }

  /// Gives a file written elsewhere (at ``temporaryPath(for:)``, by a C library) its final name the same
  /// way: synced, renamed over `path`, the folder synced. The temporary file is removed on failure.
  package static func publish(_ temporary: String, to path: String) throws(WriteError) {
    do {
      let fd = try Syscall.retrying { open(temporary, O_RDONLY | O_CLOEXEC) }
      defer { close(fd) }
      _ = try Syscall.retrying { fsync(fd) }
      _ = try Syscall.retrying { rename(temporary, path) }
    } catch {
      unlink(temporary)
      throw WriteError(path: path, error)
    }
    syncFolder(folder(of: path))
  }

  /// A file written in pieces and published as ``write(_:to:mode:)`` publishes a whole one, for a
  /// report too large to hold in memory: each piece goes to the temporary name beside `path` as it comes,
  /// counted and checksummed; ``finish()`` syncs the file and gives it its name. A stream dropped
  /// unfinished (its writer failed) removes its temporary file.
  package final class Stream {
    /// Where the file is published.
    package let path: String
    private let temporary: String
    private var fd: Int32
    private var digest: SHA256Digest? = SHA256Digest()
    /// Bytes written so far.
    package private(set) var bytes: Int64 = 0

    /// Opens the temporary file beside `path`, creating its folders; `mode` as for a whole write.
    package init(path: String, mode: UInt32? = DurableFile.mode) throws(WriteError) {
      self.path = path
      temporary = DurableFile.temporaryPath(for: path)
      try DurableFile.createFolders(DurableFile.folder(of: path))
      do {
        let temporary = temporary
        fd = try Syscall.retrying {
          open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode ?? 0o666))
        }
        if let mode { _ = try Syscall.retrying { [fd] in fchmod(fd, mode_t(mode)) } }
      } catch {
        throw WriteError(path: temporary, error)
      }
    }

    deinit {
      guard fd >= 0 else { return }
      close(fd)
      unlink(temporary)
    }

    /// Appends `piece`.
    package func append(_ piece: [UInt8]) throws(WriteError) {
      precondition(fd >= 0, "DurableFile.Stream: append after finish")
      digest?.update(piece)
      bytes += Int64(piece.count)
      do {
        try DurableFile.writeAll(piece, to: fd)
      } catch {
        throw WriteError(path: temporary, error)
      }
    }

    /// Closes the file and publishes it under ``path``; returns its size and SHA-256 (hex).
    package func finish() throws(WriteError) -> (bytes: Int64, sha256: String) {
      precondition(fd >= 0, "DurableFile.Stream: finished twice")
      close(fd)
      fd = -1
      try DurableFile.publish(temporary, to: path)
      return (bytes, digest.take()?.finalizeHex() ?? "")
    }
  }

  /// The temporary name beside `path` that a write goes to first: `.NAME.tmp-PID` in the same folder.
  package static func temporaryPath(for path: String) -> String {
    let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    let parent = folder(of: path)
    return (parent == "." && !path.hasPrefix("./") ? "" : parent + "/") + ".\(name).tmp-\(getpid())"
  }

  /// The bytes of the file at `path`, or nil where it does not exist or cannot be read.
  package static func read(_ path: String) -> [UInt8]? {
    guard let file = try? ReadOnlyFile(path: path) else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(file.size))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = try? chunk.withUnsafeMutableBufferPointer { (buffer) throws(SystemError) -> Int in
        try file.read(into: buffer)
      }
      guard let count else { return nil }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
    }
  }

  /// Creates `folder` and the folders above it that are missing (as `mkdir -p`).
  package static func createFolders(_ folder: String) throws(WriteError) {
    var prefix = folder.hasPrefix("/") ? "/" : ""
    for part in folder.split(separator: "/") {
      prefix += part
      if mkdir(prefix, 0o777) != 0 {
        let code = errno
        if code != EEXIST { throw WriteError(path: prefix, SystemError(code: code)) }
      }
      prefix += "/"
    }
  }

  /// Removes a temporary file that will not be published (its writer failed).
  package static func remove(_ temporary: String) { unlink(temporary) }

  /// The folder of `path` (`.` for a bare name).
  package static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  private static func writeAll(_ bytes: [UInt8], to fd: Int32) throws(SystemError) {
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { raw -> Int in
        let rest = UnsafeRawBufferPointer(rebasing: raw[written...])
        return Glibc.write(fd, rest.baseAddress, rest.count)
      }
      if count < 0 {
        let code = errno
        if code == EINTR { continue }
        throw SystemError(code: code)
      }
      written += count
    }
  }

  /// `fsync` on the folder, so a rename in it is on disk; a folder that cannot be opened is left as is.
  private static func syncFolder(_ folder: String) {
    let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }
}
