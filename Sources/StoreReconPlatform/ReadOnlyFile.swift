import Glibc

/// An error of a system call: its `errno` and the C library's words for it.
package struct SystemError: Error, Sendable, CustomStringConvertible {
  /// The `errno` value.
  package var code: Int32
  /// Whether the path (or a folder on it) does not exist.
  package var isNotFound: Bool { code == ENOENT || code == ENOTDIR }
  /// Whether the path names a folder.
  package var isDirectory: Bool { code == EISDIR }

  /// The error for `code`.
  package init(code: Int32) { self.code = code }

  /// `strerror`'s text.
  package var description: String { Syscall.message(code) }
}

/// The project's one wrapper of the system calls it makes on files: every call is retried when a
/// signal interrupts it (`EINTR`) and fails with a ``SystemError``.
package enum Syscall {
  /// `strerror(code)`, or `error N`.
  package static func message(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }

  /// The current `errno`.
  package static var lastError: Int32 { errno }

  /// `body` again while it fails with `EINTR`; its result, or the error of its last failure.
  @inlinable
  package static func retrying<R: BinaryInteger>(_ body: () -> R) throws(SystemError) -> R {
    while true {
      let result = body()
      if result >= 0 { return result }
      let code = errno
      if code != EINTR { throw SystemError(code: code) }
    }
  }

  /// Waits until `socket` is readable (or writable) or `timeoutMs` passes: `true` when it is ready,
  /// `false` on the time-out (an interrupted wait is taken up again with the whole time-out).
  package static func waitFor(socket: Int32, readable: Bool, timeoutMs: Int32) throws(SystemError) -> Bool {
    var fd = pollfd(fd: socket, events: Int16(readable ? POLLIN : POLLOUT), revents: 0)
    return try retrying { poll(&fd, 1, timeoutMs) } > 0
  }

  /// The size in bytes of the file at `path`, or `nil` when it cannot be looked at.
  package static func fileSize(atPath path: String) -> Int64? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int64(info.st_size)
  }
}

/// A file opened for reading: one descriptor, owned here and closed once when this goes away.
package final class ReadOnlyFile: @unchecked Sendable {
  /// The descriptor (valid while this object lives).
  package let descriptor: Int32
  /// The file's size in bytes when it was opened.
  package let size: Int64

  /// Opens `path`; a folder is refused with `EISDIR`.
  package init(path: String) throws(SystemError) {
    let fd = try Syscall.retrying { open(path, O_RDONLY | O_CLOEXEC) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      throw SystemError(code: code)
    }
    guard (info.st_mode & S_IFMT) != S_IFDIR else {
      close(fd)
      throw SystemError(code: EISDIR)
    }
    descriptor = fd
    size = Int64(info.st_size)
  }

  deinit { close(descriptor) }

  /// Reads the next bytes at the file position into `buffer`; `0` at the end.
  package func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(SystemError) -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    return try Syscall.retrying { Glibc.read(descriptor, base, buffer.count) }
  }

  /// Reads up to `buffer.count` bytes at `offset` (fewer only at the end of the file), without moving
  /// the file position.
  package func read(at offset: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(SystemError)
    -> Int
  {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    var total = 0
    while total < buffer.count {
      let n = try Syscall.retrying {
        pread(descriptor, base + total, buffer.count - total, off_t(offset + Int64(total)))
      }
      if n == 0 { break }
      total += n
    }
    return total
  }
}
