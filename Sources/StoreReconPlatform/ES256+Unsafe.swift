// Safety: the EVP_PKEY is owned and freed once, in deinit, and lent only for the duration of `withPKey`; a
// raw signature is 64 bytes (precondition, debug and release) read as two 32-byte halves; DER output goes
// into arrays of the length libcrypto asked for.

internal import CCrypto

/// An EC P-256 public key that verifies ES256 signatures (ECDSA over SHA-256, RFC 7518 §3.4): the raw
/// 64 bytes `r‖s` a JWS carries, converted to the DER `ECDSA-Sig-Value` libcrypto verifies.
/// Immutable; `verify` makes its own digest context, so one key may verify on several threads.
package final class ES256PublicKey: @unchecked Sendable {
  /// The `EVP_PKEY*`, owned: freed exactly once, in `deinit`.
  private let key: OpaquePointer

  init(owning key: OpaquePointer) { self.key = key }

  deinit { EVP_PKEY_free(key) }

  /// Calls `body` with the `EVP_PKEY*` (valid for the call).
  func withPKey<R>(_ body: (OpaquePointer) -> R) -> R { body(key) }

  /// Whether `signature` (64 bytes, `r‖s` big-endian) signs `message` with this key.
  package func verify(message: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer) -> Bool {
    guard signature.count == 64, let der = ES256PublicKey.der(rawSignature: signature) else { return false }
    guard let context = EVP_MD_CTX_new() else { return false }
    defer { EVP_MD_CTX_free(context) }
    guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else {
      ERR_clear_error()
      return false
    }
    let base = message.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) }
    let empty: UInt8 = 0
    let ok = der.withUnsafeBufferPointer { sig -> Bool in
      withUnsafePointer(to: empty) { nothing in
        EVP_DigestVerify(context, sig.baseAddress, sig.count, base ?? nothing, message.count) == 1
      }
    }
    if !ok { ERR_clear_error() }
    return ok
  }

  /// `r‖s` as a DER `ECDSA-Sig-Value`; `nil` when r or s is zero (never a valid signature).
  static func der(rawSignature raw: UnsafeRawBufferPointer) -> [UInt8]? {
    precondition(raw.count == 64, "ES256PublicKey: an ES256 signature is 64 bytes")
    guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
    guard let sig = ECDSA_SIG_new() else { return nil }
    defer { ECDSA_SIG_free(sig) }
    guard let r = BN_bin2bn(base, 32, nil) else { return nil }
    guard let s = BN_bin2bn(base + 32, 32, nil) else {
      BN_free(r)
      return nil
    }
    guard BN_is_zero(r) == 0, BN_is_zero(s) == 0, ECDSA_SIG_set0(sig, r, s) == 1 else {
      BN_free(r)
      BN_free(s)
      return nil
    }
    let length = i2d_ECDSA_SIG(sig, nil)
    guard length > 0 else { return nil }
    var out = [UInt8](repeating: 0, count: Int(length))
    let written = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
      var cursor = buffer.baseAddress
      return i2d_ECDSA_SIG(sig, &cursor)
    }
    return written == length ? out : nil
  }
}

extension ES256PublicKey {
  /// A DER `ECDSA-Sig-Value` as the raw 64 bytes `r‖s` a JWS carries (the reverse of
  /// ``der(rawSignature:)``); `nil` when it does not parse or r or s does not fit 32 bytes.
  static func raw(derSignature der: [UInt8]) -> [UInt8]? {
    der.withUnsafeBufferPointer { buffer -> [UInt8]? in
      var cursor = buffer.baseAddress
      guard let sig = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else { return nil }
      defer { ECDSA_SIG_free(sig) }
      guard let r = ECDSA_SIG_get0_r(sig), let s = ECDSA_SIG_get0_s(sig) else { return nil }
      var out = [UInt8](repeating: 0, count: 64)
      let ok = out.withUnsafeMutableBufferPointer { raw -> Bool in
        guard let base = raw.baseAddress else { return false }
        return BN_bn2binpad(r, base, 32) == 32 && BN_bn2binpad(s, base + 32, 32) == 32
      }
      return ok ? out : nil
    }
  }
}
