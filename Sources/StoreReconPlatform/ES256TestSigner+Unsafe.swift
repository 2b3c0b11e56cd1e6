// Safety: the EC group is owned and freed once, in deinit; the six big numbers and their context live only
// inside `withNumbers` and are freed there; libcrypto reads 32-byte arrays inside their closures and writes
// `r` and `s` into the two 32-byte halves of a 64-byte array.

internal import CCrypto

/// Signs ES256 (ECDSA P-256 over SHA-256) with a deterministic nonce, for the demo world and the tests
/// only: the same key and message always give the same 64 bytes `r‖s`, so a seeded demo world is
/// byte-identical run after run. The nonce is SHA-256 of the private scalar, the message digest and a
/// counter, reduced mod n (not RFC 6979's HMAC-DRBG: good enough for published test keys, never meant
/// for a real key). Computed with libcrypto's big numbers and curve points.
package final class ES256TestSigner: @unchecked Sendable {
  private let group: OpaquePointer
  private let scalar: [UInt8]

  /// A signer with the 32-byte private scalar `d` (big-endian); `nil` when it is not in [1, n-1].
  package init?(privateScalar d: [UInt8]) {
    guard d.count == 32, let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else { return nil }
    self.group = group
    scalar = d
    let valid = ES256TestSigner.withNumbers { context, numbers in
      guard let order = EC_GROUP_get0_order(group) else { return false }
      return d.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, numbers[0]) } != nil
        && BN_is_zero(numbers[0]) == 0 && BN_cmp(numbers[0], order) < 0
    }
    if valid != true { return nil }
  }

  deinit { EC_GROUP_free(group) }

  /// The 64-byte signature `r‖s` of `message`.
  package func sign(_ message: [UInt8]) -> [UInt8] {
    let digest = SHA256Digest.bytes(of: message)
    for counter in UInt8(0)..<UInt8(255) {
      if let signature = attempt(digest: digest, counter: counter) { return signature }
    }
    preconditionFailure("ES256TestSigner: no nonce gave a signature")
  }

  /// One signing attempt with the nonce of `counter`; `nil` when r or s comes out zero (then the next).
  private func attempt(digest: [UInt8], counter: UInt8) -> [UInt8]? {
    let group = self.group
    let nonce = SHA256Digest.bytes(of: scalar + digest + [counter])
    return ES256TestSigner.withNumbers { context, n -> [UInt8]? in
      let (d, z, k, r, s, x) = (n[0], n[1], n[2], n[3], n[4], n[5])
      guard let order = EC_GROUP_get0_order(group), let point = EC_POINT_new(group) else { return nil }
      defer { EC_POINT_free(point) }
      _ = scalar.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, d) }
      _ = digest.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, z) }
      _ = nonce.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, x) }
      // k = nonce mod n, nonzero; R = k·G; r = R.x mod n; s = k⁻¹ (z + r·d) mod n.
      guard BN_nnmod(k, x, order, context) == 1, BN_is_zero(k) == 0,
        EC_POINT_mul(group, point, k, nil, nil, context) == 1,
        EC_POINT_get_affine_coordinates(group, point, x, nil, context) == 1,
        BN_nnmod(r, x, order, context) == 1, BN_is_zero(r) == 0,
        BN_mod_mul(s, r, d, order, context) == 1, BN_mod_add(s, s, z, order, context) == 1,
        BN_mod_inverse(x, k, order, context) != nil, BN_mod_mul(s, s, x, order, context) == 1,
        BN_is_zero(s) == 0
      else { return nil }
      var out = [UInt8](repeating: 0, count: 64)
      let ok = out.withUnsafeMutableBufferPointer { buffer -> Bool in
        guard let base = buffer.baseAddress else { return false }
        return BN_bn2binpad(r, base, 32) == 32 && BN_bn2binpad(s, base + 32, 32) == 32
      }
      return ok ? out : nil
    }
  }

  /// Runs `body` with a big-number context and six fresh numbers, all freed afterwards.
  private static func withNumbers<T>(_ body: (OpaquePointer, [OpaquePointer]) -> T?) -> T? {
    guard let context = BN_CTX_new() else { return nil }
    defer { BN_CTX_free(context) }
    var numbers: [OpaquePointer] = []
    defer { for number in numbers { BN_clear_free(number) } }
    for _ in 0..<6 {
      guard let number = BN_new() else { return nil }
      numbers.append(number)
    }
    return body(context, numbers)
  }
}
