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

  /// The payload of the compact JWS `compact`: verified, or (signatures off) only decoded.
  func payload(_ compact: UnsafeBufferPointer<UInt8>) throws(RowRejection) -> [UInt8] {
    if mode == .off {
      guard let payload = JWS.payload(compact) else {
        throw RowRejection("not a compact JWS (header.payload.signature in base64url)")
      }
      return payload
    }
    return try verifier.verifiedPayload(compact, memo: memo)
  }

  /// ``payload(_:)-(UnsafeBufferPointer<UInt8>)`` of a JWS held as a JSON string.
  func payload(_ compact: String) throws(RowRejection) -> [UInt8] {
    var compact = compact
    let result = compact.withUTF8 { bytes in
      Result { () throws(RowRejection) -> [UInt8] in try payload(bytes) }
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
