// Safety: the libcrypto handles are owned, set up in init, freed once in deinit, and used by one thread (each
// packer its own); the digest is written into a 32-byte tuple and the DER signature into a 72-byte tuple, its
// longest form (2 + 2 × (2 + 33) bytes); the signature is read only when it is 64 bytes.

internal import CCrypto

/// One thread's ES256 verifier for one key, set up once and used for every JWS that key signs: the
/// key's `EVP_PKEY_CTX` initialised for verification, a digest context and SHA-256 fetched once, and
/// the DER signature written by hand. Setting these up per signature (as ``ES256PublicKey/verify``
/// does) costs about as much again as the P-256 check itself.
///
/// Not shared between threads (each packer keeps its own); owns its libcrypto handles and frees
/// each exactly once.
package final class ES256Verifier {
  private let context: OpaquePointer
  private let digest: OpaquePointer
  private let sha256: OpaquePointer
  /// The key, kept alive as long as the context that uses it.
  private let key: ES256PublicKey

  /// A verifier for `key`, or `nil` when libcrypto cannot set one up.
  package init?(_ key: ES256PublicKey) {
    guard let sha256 = EVP_MD_fetch(nil, "SHA256", nil) else { return nil }
    guard let digest = EVP_MD_CTX_new() else {
      EVP_MD_free(sha256)
      return nil
    }
    guard let context = key.withPKey({ EVP_PKEY_CTX_new($0, nil) }), EVP_PKEY_verify_init(context) == 1 else {
      ERR_clear_error()
      EVP_MD_CTX_free(digest)
      EVP_MD_free(sha256)
      return nil
    }
    self.context = context
    self.digest = digest
    self.sha256 = sha256
    self.key = key
  }

  deinit {
    EVP_PKEY_CTX_free(context)
    EVP_MD_CTX_free(digest)
    EVP_MD_free(sha256)
  }

  /// Whether `signature` (64 bytes, `r‖s` big-endian) signs `message`.
  package func verify(message: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer) -> Bool {
    guard signature.count == 64, let raw = signature.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
      return false
    }
    var hash = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    var der = (
      UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0)
    )
    return withUnsafeMutableBytes(of: &hash) { hashBytes in
      withUnsafeMutableBytes(of: &der) { derBytes in
        guard let h = hashBytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
          let d = derBytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else { return false }
        guard digestOf(message, into: h) else { return false }
        let length = ES256Verifier.der(raw, into: d)
        guard length > 0 else { return false }
        let ok = EVP_PKEY_verify(context, d, length, h, 32) == 1
        if !ok { ERR_clear_error() }
        return ok
      }
    }
  }

  /// SHA-256 of `message` into `out` (32 bytes).
  private func digestOf(_ message: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>) -> Bool {
    guard EVP_DigestInit_ex(digest, sha256, nil) == 1 else { return false }
    if let base = message.baseAddress, message.count > 0 {
      guard EVP_DigestUpdate(digest, base, message.count) == 1 else { return false }
    }
    var length: UInt32 = 0
    return EVP_DigestFinal_ex(digest, out, &length) == 1 && length == 32
  }

  /// `r‖s` (32 + 32 bytes at `raw`) as a DER `ECDSA-Sig-Value` into `out` (room for 72 bytes); its
  /// length, or 0 when r or s is zero (never a valid signature).
  static func der(_ raw: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
    var n = 2
    for half in 0..<2 {
      let p = raw + 32 * half
      var start = 0
      while start < 32 && p[start] == 0 { start += 1 }
      if start == 32 { return 0 }
      let pad = p[start] >= 0x80 ? 1 : 0
      let length = 32 - start + pad
      out[n] = 0x02
      out[n + 1] = UInt8(length)
      n += 2
      if pad == 1 {
        out[n] = 0
        n += 1
      }
      for i in start..<32 {
        out[n] = p[i]
        n += 1
      }
    }
    out[0] = 0x30
    out[1] = UInt8(n - 2)
    return n
  }
}
