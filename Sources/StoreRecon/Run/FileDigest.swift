import Foundation

/// Size and SHA-256 of a file as stored on disk, read in 1 MiB blocks.
enum FileDigest {
  static func of(path: String) -> (bytes: Int64, sha256: String)? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    var digest = SHA256Digest()
    var total: Int64 = 0
    while true {
      guard let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty else { break }
      total += Int64(chunk.count)
      chunk.withUnsafeBytes { digest.update($0) }
    }
    return (total, digest.finalizeHex())
  }
}
