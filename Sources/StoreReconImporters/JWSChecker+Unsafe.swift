// Safety: `compact` is the caller's line (or a String's UTF-8 inside withUTF8) and is read only during the
// call; payloads come back as arrays.

package import StoreReconCore
package import StoreReconIO

/// A packer's (or a reader's) view of the run's ``JWSVerifier``: the payload of each compact JWS, verified
/// unless signatures are off, and what an unverified line becomes in each ``SignatureMode``.
package struct JWSChecker {
  let verifier: JWSVerifier
  /// This checker's memo of header verdicts (one per packer, so per thread).
  let memo = JWSMemo()

  /// A checker with `verifier`.
  package init(_ verifier: JWSVerifier) { self.verifier = verifier }

  var mode: SignatureMode { verifier.mode }

  /// The payload of the line `compact` as a compact JWS: verified, or (signatures off) only decoded;
  /// `nil` when signatures are off and the line is no JWS (three base64url parts) at all.
  func lineJWSPayload(_ compact: UnsafeBufferPointer<UInt8>) throws(RowRejection) -> [UInt8]? {
    let payload = mode == .off ? JWS.payload(compact) : try verifier.verifiedPayload(compact, memo: memo)
    if let payload, let problem = payload.withUnsafeBufferPointer(UTF8Validation.problem) {
      throw RowRejection("JWS payload: \(problem.reason)")
    }
    return payload
  }

  /// The payload of the compact JWS `compact` (held as a JSON string): verified, or (signatures off)
  /// only decoded.
  func payload(_ compact: String) throws(RowRejection) -> [UInt8] {
    var compact = compact
    let result = compact.withUTF8 { bytes in
      Result { () throws(RowRejection) -> [UInt8] in
        guard let payload = try lineJWSPayload(bytes) else {
          throw RowRejection("not a compact JWS (header.payload.signature in base64url) at byte 0")
        }
        return payload
      }
    }
    return try result.get()
  }

  /// `record` when it may be accepted: a line no signature verified for is rejected under `require`,
  /// else counted in `batch` as unverified.
  func accept(_ record: StoreTransaction, verified: Bool, batch: RecordBatch) throws(RowRejection)
    -> StoreTransaction
  {
    guard !verified else { return record }
    try acceptUnverified()
    batch.unverifiedLines += 1
    return record
  }

  /// Throws when an unverified line may not be accepted (`require`).
  func acceptUnverified() throws(RowRejection) {
    if mode == .require { throw RowRejection("unsigned line (appStore.signatures is require)") }
  }
}
