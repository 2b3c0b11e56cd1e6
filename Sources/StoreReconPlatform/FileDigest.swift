/// Size and SHA-256 of a file as stored on disk, read in 1 MiB blocks.
package enum FileDigest {
  package static func of(path: String) -> (bytes: Int64, sha256: String)? {
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
    return (total, digest.finalizeHex())
  }
}
