// Safety: the EVP_PKEY is owned and freed once, in deinit; PEM bytes are copied into a BIO libcrypto owns;
// signatures are written into an array of the key's size (1 to 2048 bytes: precondition, debug and release)
// and the length libcrypto reports is checked against it.

internal import CCrypto

/// Why an RSA key could not be read or used; the message never holds key bytes.
package struct RS256Error: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, one line (no key material).
  package var message: String

  /// An error with `message`.
  package init(_ message: String) { self.message = message }

  package var description: String { message }
}

/// RS256 (RSASSA-PKCS1-v1_5 over SHA-256, RFC 7518 §3.3) through libcrypto's `EVP_DigestSign`, with an
/// RSA private key read from PEM (PKCS#8 `BEGIN PRIVATE KEY`, as a Google service-account file holds
/// it, or PKCS#1 `BEGIN RSA PRIVATE KEY`). Owns its `EVP_PKEY` and frees it exactly once; a signature
/// uses a fresh digest context, so one signer may sign from several threads.
package final class RS256Signer: @unchecked Sendable {
  /// The `EVP_PKEY*`, owned.
  private let key: OpaquePointer

  /// The signer for the RSA private key in the PEM text `pem`.
  ///
  /// Throws when the text holds no private key, or one that is not RSA, or one under 2048 bits.
  package init(pem: [UInt8]) throws(RS256Error) {
    guard let parsed = RS256Signer.readKey(pem: pem, privateKey: true) else {
      throw RS256Error("the private key is not a PEM private key")
    }
    guard EVP_PKEY_get_base_id(parsed) == EVP_PKEY_RSA else {
      EVP_PKEY_free(parsed)
      throw RS256Error("the private key is not an RSA key")
    }
    guard EVP_PKEY_get_bits(parsed) >= 2048 else {
      EVP_PKEY_free(parsed)
      throw RS256Error("the RSA key has fewer than 2048 bits")
    }
    key = parsed
  }

  deinit { EVP_PKEY_free(key) }

  /// The RS256 signature of `message` (as many bytes as the modulus).
  package func sign(_ message: [UInt8]) throws(RS256Error) -> [UInt8] {
    guard let context = EVP_MD_CTX_new() else {
      throw RS256Error("libcrypto could not make a digest context")
    }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
      ERR_clear_error()
      throw RS256Error("libcrypto could not start an RS256 signature")
    }
    let size = Int(EVP_PKEY_get_size(key))
    precondition(size > 0 && size <= 2048, "RS256Signer: an RSA signature is 1 to 2048 bytes")
    var signature = [UInt8](repeating: 0, count: size)
    var length = size
    let ok = message.withUnsafeBufferPointer { input in
      signature.withUnsafeMutableBufferPointer { output in
        EVP_DigestSign(context, output.baseAddress, &length, input.baseAddress, input.count) == 1
      }
    }
    guard ok, length > 0, length <= size else {
      ERR_clear_error()
      throw RS256Error("libcrypto could not make an RS256 signature")
    }
    return Array(signature[0..<length])
  }

  /// The public half of the key as PEM (`BEGIN PUBLIC KEY`, SubjectPublicKeyInfo).
  package func publicKeyPEM() -> [UInt8] {
    guard let bio = BIO_new(BIO_s_mem()) else { return [] }
    defer { BIO_free(bio) }
    guard PEM_write_bio_PUBKEY(bio, key) == 1 else {
      ERR_clear_error()
      return []
    }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1024)
    while true {
      let read = chunk.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
      guard read > 0 else { break }
      out += chunk[0..<Int(read)]
    }
    return out
  }

  /// Whether `signature` is a valid RS256 signature of `message` by the RSA public key in the PEM text
  /// `publicKeyPEM` (`BEGIN PUBLIC KEY`).
  package static func verify(message: [UInt8], signature: [UInt8], publicKeyPEM: [UInt8]) -> Bool {
    guard let key = readKey(pem: publicKeyPEM, privateKey: false) else { return false }
    defer { EVP_PKEY_free(key) }
    guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA, let context = EVP_MD_CTX_new() else { return false }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else {
      ERR_clear_error()
      return false
    }
    let ok = message.withUnsafeBufferPointer { input in
      signature.withUnsafeBufferPointer { sig in
        EVP_DigestVerify(context, sig.baseAddress, sig.count, input.baseAddress, input.count) == 1
      }
    }
    ERR_clear_error()
    return ok
  }

  /// The first private (or public) key of a PEM text, owned by the caller; `nil` when there is none.
  private static func readKey(pem: [UInt8], privateKey: Bool) -> OpaquePointer? {
    guard !pem.isEmpty, pem.count < 1 << 20, let bio = BIO_new(BIO_s_mem()) else { return nil }
    defer { BIO_free(bio) }
    // A memory BIO of its own (not BIO_new_mem_buf, which reads the caller's buffer in place).
    let written = pem.withUnsafeBytes { BIO_write(bio, $0.baseAddress, Int32($0.count)) }
    guard written == Int32(pem.count) else { return nil }
    // No passphrase callback: an encrypted key fails instead of prompting on the terminal.
    let key =
      privateKey
      ? PEM_read_bio_PrivateKey(bio, nil, RS256Signer.noPassphrase, nil)
      : PEM_read_bio_PUBKEY(bio, nil, RS256Signer.noPassphrase, nil)
    ERR_clear_error()
    return key
  }

  /// A passphrase callback that gives none.
  private static let noPassphrase:
    @convention(c) (
      UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?
    ) -> Int32 = { _, _, _, _ in -1 }
}
