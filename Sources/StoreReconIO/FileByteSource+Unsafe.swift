// Safety: reads write only into the caller's buffer (pread into its count) or into an array's own storage
// inside the closure; the digest buffer is allocated and freed here, by `defer`.

import StoreReconPlatform

// FileByteSource's reads into a caller's buffer (the ByteSource requirement and `pread(2)`), and the
// safe reads built on them: a byte array at an offset, and a file's checksum through a buffer of its own.
extension FileByteSource {
  /// Reads the next bytes of the file; `0` at the end.
  package func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(InputError) -> Int {
    do {
      return try file.read(into: buffer)
    } catch {
      throw .unreadable(path: displayName, reason: error.description)
    }
  }

  /// Reads up to `buffer.count` bytes at `offset`, without moving the sequential position.
  package func read(at offset: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(InputError)
    -> Int
  {
    do {
      return try file.read(at: offset, into: buffer)
    } catch {
      throw .unreadable(path: displayName, reason: error.description)
    }
  }

  /// Up to `count` bytes at `offset` (fewer at the end of the file), without moving the sequential
  /// position.
  func bytes(at offset: Int64, count: Int) throws(InputError) -> [UInt8] {
    var result = [UInt8](repeating: 0, count: count)
    let got = try result.withUnsafeMutableBufferPointer { (buffer) throws(InputError) -> Int in
      try read(at: offset, into: buffer)
    }
    if got < count { result.removeLast(count - got) }
    return result
  }

  /// The size and SHA-256 of the file at `path`, read through a 1 MiB buffer of its own; `nil` when it
  /// cannot be read.
  static func digest(path: String) -> (bytes: Int64, sha256: String)? {
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 20)
    defer { buffer.deallocate() }
    return FileDigest.of(path: path, buffer: buffer)
  }
}

extension FileByteSource {
  /// The size and SHA-256 of this open file's bytes, read from its start through a 1 MiB buffer of its
  /// own (the same file the reads see, even if its path is replaced meanwhile).
  func digestBytes() throws(InputError) -> (bytes: Int64, sha256: [UInt8]) {
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 20)
    defer { buffer.deallocate() }
    var digest = SHA256Digest()
    var offset: Int64 = 0
    while true {
      let got = try read(at: offset, into: buffer)
      if got == 0 { break }
      digest.update(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[0..<got])))
      offset += Int64(got)
    }
    return (offset, digest.finalizeBytes())
  }
}
