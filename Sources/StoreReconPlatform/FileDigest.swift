#if canImport(Glibc)
  import Glibc
#endif

/// Size and SHA-256 of a file as stored on disk, read in 1 MiB blocks.
package enum FileDigest {
  package static func of(path: String) -> (bytes: Int64, sha256: String)? {
    guard let (total, sha) = bytes(path: path) else { return nil }
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    hex.reserveCapacity(64)
    for b in sha {
      hex.append(digits[Int(b >> 4)])
      hex.append(digits[Int(b & 15)])
    }
    return (total, String(decoding: hex, as: UTF8.self))
  }

  /// ``of(path:)`` with the SHA-256 as its 32 bytes.
  package static func bytes(path: String) -> (bytes: Int64, sha256: [UInt8])? {
    guard let file = try? ReadOnlyFile(path: path) else { return nil }
    var digest = SHA256Digest()
    var total: Int64 = 0
    var block = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      // A read error ends the file as the end of file would: the digest of the bytes read so far (a
      // file that cannot be read at all fails above).
      let got = block.withUnsafeMutableBufferPointer { (try? file.read(into: $0)) ?? 0 }
      if got == 0 { break }
      total += Int64(got)
      block.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
    }
    return (total, digest.finalizeBytes())
  }
}

/// What says a file was not replaced or written to between two looks: its device, inode, size and
/// modification time.
package struct FileStamp: Equatable, Sendable {
  let device: UInt64
  let inode: UInt64
  let size: Int64
  let seconds: Int64
  let nanoseconds: Int64

  /// The stamp of the file at `path`, or `nil` when it cannot be looked at.
  package static func of(_ path: String) -> FileStamp? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileStamp(
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
      seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec))
  }
}
