// Safety: `compact` is the caller's line, read only during the call: the three parts are slices between the
// dots `dots(_:)` found inside it (memchr counts are what is left after each dot); the signed bytes are its
// prefix up to the second dot; the memo's headers are arrays compared with memcmp only at equal counts.

import StoreReconCore
import StoreReconPlatform

// The per-JWS checks on the line's bytes: the three parts found in place, the header's verdict from the
// packer's memo (or the verifier), the signature over the first two parts as they stand in the line.
extension JWSVerifier {
  /// The decoded payload of the compact JWS `compact` once it verified, or why it is rejected.
  package func verifiedPayload(_ compact: UnsafeBufferPointer<UInt8>, memo: JWSMemo) throws(RowRejection)
    -> [UInt8]
  {
    guard let (one, two) = JWSVerifier.dots(compact) else {
      throw RowRejection("not a compact JWS (header.payload.signature in base64url)")
    }
    if memo.tally == nil { memo.tally = shared }
    var key: VerifiedRecord.Key?
    if let record {
      let lineKey = recordKey(compact)
      // Verified by an earlier run: these exact bytes passed every check below.
      if record.contains(lineKey),
        let payload = Base64URL.decode(UnsafeBufferPointer(rebasing: compact[(one + 1)..<two]))
      {
        memo.known += 1
        return payload
      }
      key = lineKey
    }
    let headerText = UnsafeBufferPointer(rebasing: compact[0..<one])
    let (chain, slot) = try self.chain(headerText, memo: memo)
    guard let signature = Base64URL.decode(UnsafeBufferPointer(rebasing: compact[(two + 1)...])),
      signature.count == 64
    else { throw RowRejection("signature") }
    let signed = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(compact)[0..<two])
    let verifier = memo.verifier(slot, chain)
    let valid = signature.withUnsafeBytes { raw in
      verifier?.verify(message: signed, signature: raw) ?? chain.key.verify(message: signed, signature: raw)
    }
    guard valid else { throw RowRejection("signature") }
    guard let payload = Base64URL.decode(UnsafeBufferPointer(rebasing: compact[(one + 1)..<two])) else {
      throw RowRejection("JWS payload is not base64url")
    }
    let (signedDate, purchaseDate) = try JWSVerifier.dates(payload)
    if let failure = JWSVerifier.timeFailure(chain, signedDate: signedDate) { throw RowRejection(failure) }
    if let failure = JWSVerifier.orderFailure(signedDate: signedDate, purchaseDate: purchaseDate) {
      throw RowRejection(failure)
    }
    memo.verified += 1
    if let key { memo.fresh.append(key) }
    return payload
  }

  /// The record key of the line `compact` read through this verifier: SHA-256 over the input's scope and
  /// the line's bytes, its first 16 bytes.
  package func recordKey(_ compact: UnsafeBufferPointer<UInt8>) -> VerifiedRecord.Key {
    var digest = SHA256Digest()
    digest.update(scope)
    digest.update(UnsafeRawBufferPointer(compact))
    return VerifiedRecord.Key(digest: digest.finalizeBytes())
  }

  /// The payload's `signedDate` and, for a transaction, its `purchaseDate` (Unix milliseconds): read in
  /// place from a flat object with plain integers, else through the full parser (which words what is
  /// wrong).
  static func dates(_ payload: [UInt8]) throws(RowRejection) -> (signed: Int64, purchase: Int64?) {
    var found: Int64?
    var purchase: Int64?
    var plain = true
    let flat = payload.withUnsafeBufferPointer { bytes in
      FlatJSONScanner.scan(bytes) { key, value in
        let signed = FlatJSONScanner.equals(key, "signedDate")
        guard signed || FlatJSONScanner.equals(key, "purchaseDate") else { return }
        if case .number(let text) = value, let ms = FlatJSONScanner.plainInt64(text) {
          if signed { found = ms } else { purchase = ms }
        } else {
          plain = false
        }
      }
    }
    if flat && plain, let found { return (found, purchase) }
    do {
      let value = try JSONParser.parse(payload)
      guard let ms = value["signedDate"]?.int64Value else {
        throw RowRejection("JWS payload has no signedDate")
      }
      return (ms, value["purchaseDate"]?.int64Value)
    } catch let error as JSONError {
      throw RowRejection("JWS payload is not valid JSON: \(error)")
    } catch let error as RowRejection {
      throw error
    } catch {
      throw RowRejection("JWS payload: \(error)")
    }
  }

  /// The verdict of the header `text` (base64url), from `memo` or worked out and kept there.
  private func chain(_ text: UnsafeBufferPointer<UInt8>, memo: JWSMemo) throws(RowRejection)
    -> (VerifiedChain, Int)
  {
    let slot = memo.slot(text) ?? remember(text, in: memo)
    switch memo.verdicts[slot] {
    case .chain(let chain): return (chain, slot)
    case .rejected(let reason): throw RowRejection(reason)
    }
  }

  /// Works out the verdict of the header `text` and keeps it in `memo` (its last 8 headers); its slot.
  private func remember(_ text: UnsafeBufferPointer<UInt8>, in memo: JWSMemo) -> Int {
    let verdict: HeaderVerdict
    if let decoded = Base64URL.decode(text) {
      verdict = self.verdict(header: decoded)
    } else {
      verdict = .rejected("JWS header is not base64url")
    }
    if memo.headers.count >= 8 {
      memo.headers.removeFirst()
      memo.verdicts.removeFirst()
      memo.verifiers.removeFirst()
    }
    memo.headers.append(Array(text))
    memo.verdicts.append(verdict)
    memo.verifiers.append(nil)
    return memo.headers.count - 1
  }

  /// The offsets of the two dots of a compact JWS, when it has exactly two and non-empty first parts.
  package static func dots(_ compact: UnsafeBufferPointer<UInt8>) -> (Int, Int)? {
    guard let base = compact.baseAddress else { return nil }
    let n = compact.count
    guard let first = Memory.memchr(base, 0x2E, n) else { return nil }
    let one = base.distance(to: first.assumingMemoryBound(to: UInt8.self))
    guard let second = Memory.memchr(base + one + 1, 0x2E, n - one - 1) else { return nil }
    let two = base.distance(to: second.assumingMemoryBound(to: UInt8.self))
    guard Memory.memchr(base + two + 1, 0x2E, n - two - 1) == nil, one > 0, two > one + 1 else { return nil }
    return (one, two)
  }

  /// The cache key of a chain: SHA-256 over each certificate's length (4 bytes, big-endian) and DER.
  static func chainKey(_ ders: [[UInt8]]) -> [UInt8] {
    var digest = SHA256Digest()
    for der in ders {
      var length = UInt32(der.count).bigEndian
      withUnsafeBytes(of: &length) { digest.update($0) }
      der.withUnsafeBytes { digest.update($0) }
    }
    return digest.finalizeBytes()
  }
}

extension JWSMemo {
  /// This thread's verifier for the chain kept in `slot`, made on first use (`nil` when libcrypto
  /// could not set one up: the key then verifies on its own).
  func verifier(_ slot: Int, _ chain: VerifiedChain) -> ES256Verifier? {
    if let known = verifiers[slot] { return known }
    let made = ES256Verifier(chain.key)
    verifiers[slot] = made
    return made
  }

  /// The slot of the header `text` among the kept ones, the latest first.
  func slot(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = text.baseAddress else { return nil }
    var index = headers.count - 1
    while index >= 0 {
      let known = headers[index]
      if known.count == text.count,
        known.withUnsafeBytes({ Memory.memcmp($0.baseAddress ?? UnsafeRawPointer(base), base, text.count) })
          == 0
      {
        return index
      }
      index -= 1
    }
    return nil
  }
}
