#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A plain file read sequentially in large blocks with `read(2)`, or at an offset with `pread(2)`.
///
/// The descriptor is owned by this object and closed once, when it goes away.
public final class FileByteSource: ByteSource {
  /// The file's name as the user wrote it, used in errors.
  public let displayName: String
  /// The file's size in bytes when it was opened.
  public let size: Int64
  private let fd: Int32

  /// Opens `path` for reading; errors name `displayName`.
  public init(path: String, displayName: String) throws(InputError) {
    self.displayName = displayName
    var descriptor: Int32
    repeat {
      descriptor = open(path, O_RDONLY | O_CLOEXEC)
    } while descriptor < 0 && errno == EINTR
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT || code == ENOTDIR { throw .notFound(path: displayName) }
      throw .unreadable(path: displayName, reason: FileByteSource.message(code))
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let code = errno
      close(descriptor)
      throw .unreadable(path: displayName, reason: FileByteSource.message(code))
    }
    guard (info.st_mode & S_IFMT) != S_IFDIR else {
      close(descriptor)
      throw .unreadable(path: displayName, reason: "it is a directory")
    }
    fd = descriptor
    size = Int64(info.st_size)
  }

  deinit { close(fd) }

  /// The whole file mapped into memory (``mapWhole()``), or `nil`.
  private(set) var mapping: MappedFile?

  /// Maps the whole file, once (a no-op when it cannot be mapped); call it before the source is shared
  /// between threads.
  func mapWhole() {
    if mapping == nil { mapping = MappedFile(fd: fd, size: size) }
  }

  /// Reads the next bytes of the file; `0` at the end.
  public func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(InputError) -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    while true {
      let n = systemRead(fd, base, buffer.count)
      if n >= 0 { return n }
      let code = errno
      if code == EINTR { continue }
      throw .unreadable(path: displayName, reason: FileByteSource.message(code))
    }
  }

  /// Reads up to `buffer.count` bytes at `offset`, without moving the sequential position.
  public func read(at offset: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(InputError) -> Int
  {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    var total = 0
    while total < buffer.count {
      let n = pread(fd, base + total, buffer.count - total, off_t(offset + Int64(total)))
      if n > 0 {
        total += n
      } else if n == 0 {
        break
      } else {
        let code = errno
        if code == EINTR { continue }
        throw .unreadable(path: displayName, reason: FileByteSource.message(code))
      }
    }
    return total
  }

  static func message(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }
}

@inline(__always)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
  read(fd, buffer, count)
}
