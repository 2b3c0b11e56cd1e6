import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

extension FileDigest {
  /// Checksums a run's input files on a background thread, in order, while the run reads them: the
  /// run asks for each file's digest after reading the file and usually finds it ready.
  package final class Prefetch: @unchecked Sendable {
    private let paths: [String]
    private var results: [(bytes: Int64, sha256: String)?]
    private let ready: [DispatchSemaphore]
    private var taken: [Bool]
    private let lock = Lock()

    /// Starts checksumming `paths` in order.
    package init(_ paths: [String]) {
      self.paths = paths
      results = Array(repeating: nil, count: paths.count)
      ready = paths.map { _ in DispatchSemaphore(value: 0) }
      taken = Array(repeating: false, count: paths.count)
      let work = Work(prefetch: self)
      DispatchQueue.global(qos: .utility).async { work.run() }
    }

    private struct Work: @unchecked Sendable {
      let prefetch: Prefetch
      func run() {
        // One 4 MiB buffer for every file (a fresh megabyte per read costs page faults).
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4 << 20)
        defer { buffer.deallocate() }
        for (i, path) in prefetch.paths.enumerated() {
          let digest = FileDigest.of(path: path, buffer: buffer)
          prefetch.lock.locked { prefetch.results[i] = digest }
          prefetch.ready[i].signal()
        }
      }
    }

    /// The size and checksum of `path` (the next request for that path takes the next file of that
    /// path in the list), waiting for it if needed; `nil` when the file cannot be read.
    package func of(path: String) -> (bytes: Int64, sha256: String)? {
      let index: Int? = lock.locked {
        guard let i = paths.indices.first(where: { paths[$0] == path && !taken[$0] }) else { return nil }
        taken[i] = true
        return i
      }
      guard let index else { return FileDigest.of(path: path) }
      ready[index].wait()
      return lock.locked { results[index] }
    }
  }

  /// Size and SHA-256 of a file: hashed where the page cache holds it (mapped, a window at a time), or
  /// read with `read(2)` into `buffer` when it cannot be mapped.
  package static func of(path: String, buffer: UnsafeMutableBufferPointer<UInt8>) -> (
    bytes: Int64, sha256: String
  )? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0, let base = buffer.baseAddress else { return nil }
    defer { close(fd) }
    var digest = SHA256Digest()
    var total: Int64 = 0
    var info = stat()
    if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
      let map = MappedFile(fd: fd, size: Int64(info.st_size))
    {
      let window = 8 << 20
      var offset = 0
      while offset < map.size {
        let count = min(window, map.size - offset)
        guard map.load(offset, count) else { break }  // the file shrank: read the rest
        digest.update(UnsafeRawBufferPointer(start: map.base + offset, count: count))
        map.release(offset, count)
        offset += count
      }
      total = Int64(offset)
      guard lseek(fd, off_t(total), SEEK_SET) == off_t(total) else { return nil }
    }
    // The rest (all of it when the file is not mapped), to the end of the file as it is now.
    while true {
      let n = read(fd, base, buffer.count)
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { break }  // end of file, or an error: the bytes read so far (as FileDigest.of)
      total += Int64(n)
      digest.update(UnsafeRawBufferPointer(start: base, count: n))
    }
    return (total, digest.finalizeHex())
  }
}
