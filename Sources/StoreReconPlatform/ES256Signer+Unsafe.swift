// Safety: the EVP_PKEY is owned and freed once, in deinit; libcrypto reads the PEM and the message inside the
// closures only and writes the DER signature into an array of the length it asked for.

internal import CCrypto

/// Signs ES256 (ECDSA P-256 over SHA-256, RFC 7518 §3.4) with a real private key — the App Store Connect
/// API key's `.p8` file (a PKCS#8 PEM) — for the JWTs of `storerecon fetch`. libcrypto draws the nonce;
/// the DER signature it makes is converted to the raw 64 bytes `r‖s` a JWS carries
/// (``ES256PublicKey/raw(derSignature:)``). The key never leaves the `EVP_PKEY`; no message names it.
package final class ES256Signer: @unchecked Sendable {
  /// Why a key could not be loaded (the text never quotes the key).
  package enum KeyError: Error, Equatable {
    /// The bytes are not a PEM private key (or it is encrypted: the `.p8` is not).
    case notAPrivateKey
    /// A private key, but not an EC P-256 one.
    case notP256
  }

  /// The `EVP_PKEY*`, owned: freed exactly once, in `deinit`.
  private let key: OpaquePointer

  /// The key in `pem` (`-----BEGIN PRIVATE KEY-----` PKCS#8, or a SEC1 `EC PRIVATE KEY`).
  package init(pem: [UInt8]) throws(KeyError) {
    let loaded = pem.withUnsafeBufferPointer { bytes -> OpaquePointer? in
      guard let base = bytes.baseAddress, let bio = BIO_new_mem_buf(base, Int32(bytes.count)) else {
        return nil
      }
      defer { BIO_free(bio) }
      // A password callback that refuses: without one libcrypto would prompt on the terminal.
      return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in -1 }, nil)
    }
    guard let loaded else {
      ERR_clear_error()
      throw .notAPrivateKey
    }
    guard EVP_PKEY_get_base_id(loaded) == EVP_PKEY_EC, EVP_PKEY_get_bits(loaded) == 256 else {
      EVP_PKEY_free(loaded)
      throw .notP256
    }
    key = loaded
  }

  deinit { EVP_PKEY_free(key) }

  /// The 64-byte signature `r‖s` of `message`; `nil` when libcrypto fails.
  package func sign(_ message: [UInt8]) -> [UInt8]? {
    guard let context = EVP_MD_CTX_new() else { return nil }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
      ERR_clear_error()
      return nil
    }
    var length = 0
    let sized = message.withUnsafeBufferPointer { bytes in
      EVP_DigestSign(context, nil, &length, bytes.baseAddress, bytes.count)
    }
    guard sized == 1, length > 0 else {
      ERR_clear_error()
      return nil
    }
    var der = [UInt8](repeating: 0, count: length)
    let signed = der.withUnsafeMutableBufferPointer { out in
      message.withUnsafeBufferPointer { bytes in
        EVP_DigestSign(context, out.baseAddress, &length, bytes.baseAddress, bytes.count)
      }
    }
    guard signed == 1 else {
      ERR_clear_error()
      return nil
    }
    return ES256PublicKey.raw(derSignature: Array(der.prefix(length)))
  }
}
