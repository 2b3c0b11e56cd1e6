internal import CCrypto

/// SHA-256 through the system's libcrypto (EVP interface): whole buffers, or incrementally for
/// streamed files. Owns its digest context and frees it exactly once.
package struct SHA256Digest: ~Copyable {
  private let context: OpaquePointer?

  /// Starts a new digest.
  package init() {
    context = EVP_MD_CTX_new()
    if let context { EVP_DigestInit_ex(context, EVP_sha256(), nil) }
  }

  deinit { EVP_MD_CTX_free(context) }

  /// Feeds bytes.
  package mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard let context, let base = bytes.baseAddress, bytes.count > 0 else { return }
    EVP_DigestUpdate(context, base, bytes.count)
  }

  /// Feeds the bytes of an array.
  package mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// Finishes and returns the digest as 64 lower-case hex digits.
  package consuming func finalizeHex() -> String {
    var out = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    if let context { EVP_DigestFinal_ex(context, &out, &length) }
    return SHA256Digest.hexString(out)
  }

  /// Finishes and returns the 32 digest bytes.
  package consuming func finalizeBytes() -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    if let context { EVP_DigestFinal_ex(context, &out, &length) }
    return out
  }

  /// The SHA-256 of `bytes`, 32 bytes.
  package static func bytes(of bytes: [UInt8]) -> [UInt8] {
    var digest = SHA256Digest()
    bytes.withUnsafeBytes { digest.update($0) }
    return digest.finalizeBytes()
  }

  /// The hex SHA-256 of `bytes`.
  package static func hex(of bytes: [UInt8]) -> String {
    var digest = SHA256Digest()
    bytes.withUnsafeBytes { digest.update($0) }
    return digest.finalizeHex()
  }

  static func hexString(_ bytes: [UInt8]) -> String {
    let digits: [UInt8] = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(bytes.count * 2)
    for b in bytes {
      out.append(digits[Int(b >> 4)])
      out.append(digits[Int(b & 15)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
