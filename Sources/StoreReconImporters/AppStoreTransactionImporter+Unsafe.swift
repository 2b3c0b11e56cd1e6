// Safety: each line is a buffer in the read's chunk or the line reader, valid during the call; the packers
// and parsers copy what a record keeps; JWS payloads are arrays read through their own buffers inside the
// closure.

import StoreReconPlatform
package import StoreReconCore
package import StoreReconIO

// The line-level entry points: each line a buffer into the read's chunk (or line reader), valid during
// the call — the batch import's packer and the full path's transaction of a line.
extension AppStoreTransactionImporter {
  /// Packs lines: the fast path where it applies, else the full path's record. A JWS line's signature is
  /// verified here, on the worker thread, before its payload is packed (``JWSVerifier``).
  package struct Packer: JSONLinePacker {
    /// The verifier and the window (``AppStoreTransactionImporter/Settings``).
    package typealias Settings = AppStoreTransactionImporter.Settings
    let fast: AppStoreFastPath
    var cache = AppStoreFastPath.PackCache()
    let checker: JWSChecker
    let window: StoreTimeWindow

    /// A packer checking signatures with the settings' verifier, reading times within their window.
    package init(settings: Settings) {
      checker = JWSChecker(settings.verifier)
      window = settings.window
      fast = AppStoreFastPath(window: settings.window)
    }

    /// A packer on its own (tests, fuzzing) checking signatures with `verifier`: times within
    /// ``StoreTimeWindow/standalone``.
    package init(settings verifier: JWSVerifier) {
      self.init(settings: AppStoreTransactionImporter.Settings(verifier: verifier))
    }

    /// About one record per 560 bytes (a plain transaction line is 500 to 700).
    package func reserve(_ batch: RecordBatch, bytes: Int) {
      let n = bytes / 560 + 16
      batch.records.reserveCapacity(n)
      batch.keys.reserveCapacity(n)
      batch.spaces.reserveCapacity(n)
      batch.tokenNumbers.reserveCapacity(n)
      batch.originals.reserveCapacity(n)
    }

    package mutating func pack(_ line: UnsafeBufferPointer<UInt8>, into batch: RecordBatch)
      throws(RowRejection)
    {
      let first = line.first ?? 0
      if first == 0x7B || first == 0x5B || first == 0x22 {
        if checker.mode != .require, fast.pack(line, into: batch, cache: &cache) {
          batch.unverifiedLines += 1
          return
        }
        let (record, verified) = try AppStoreTransactionImporter.transaction(
          line: line, origin: Origin(file: -1, line: 0), checker: checker, window: window)
        batch.add(try checker.accept(record, verified: verified, batch: batch))
        if record.currency == nil { batch.unpricedLines += 1 }
        return
      }
      // A compact JWS whose payload is a plain transaction object: what the full path makes of it (it
      // parses the payload as it parses a line, and unwraps nothing when the object is no wrapper).
      guard JWSVerifier.dots(line) != nil, let payload = try checker.lineJWSPayload(line) else {
        // Neither JSON nor a JWS: the full path says why.
        _ = try AppStoreTransactionImporter.transaction(
          line: line, origin: Origin(file: -1, line: 0), checker: checker, window: window)
        return
      }
      let packed = payload.withUnsafeBufferPointer { fast.pack($0, into: batch, cache: &cache) }
      let verified = checker.mode != .off
      if packed {
        if !verified { batch.unverifiedLines += 1 }
        return
      }
      let (record, inner) = try AppStoreTransactionImporter.transaction(
        jwsPayload: payload, origin: Origin(file: -1, line: 0), checker: checker, window: window)
      batch.add(try checker.accept(record, verified: verified || inner, batch: batch))
      if record.currency == nil { batch.unpricedLines += 1 }
    }
  }

  /// The transaction one line holds (JSON or compact JWS), or why it is rejected; and whether a
  /// signature on the way to it verified.
  package static func transaction(
    line: UnsafeBufferPointer<UInt8>, origin: Origin, checker: JWSChecker,
    window: StoreTimeWindow = .standalone
  ) throws(RowRejection) -> (StoreTransaction, verified: Bool) {
    let first = line.first ?? 0
    let isJSON = first == 0x7B || first == 0x5B || first == 0x22
    if !isJSON, JWSVerifier.dots(line) != nil, let payload = try checker.lineJWSPayload(line) {
      let (record, inner) = try transaction(
        jwsPayload: payload, origin: origin, checker: checker, window: window)
      return (record, checker.mode != .off || inner)
    }
    let value = try JSONLinesImport.parse(line)
    let (payload, verified) = try unwrap(value, depth: 0, checker: checker)
    return (try transaction(from: payload, origin: origin, window: window), verified)
  }

  /// The transaction of a line's JWS payload (decoded JSON bytes).
  static func transaction(
    jwsPayload payload: [UInt8], origin: Origin, checker: JWSChecker, window: StoreTimeWindow
  ) throws(RowRejection) -> (StoreTransaction, verified: Bool) {
    let value: JSONValue
    do {
      value = try JSONParser.parse(payload)
    } catch {
      throw RowRejection("JWS payload is not valid JSON: \(error)")
    }
    let (inner, verified) = try unwrap(value, depth: 1, checker: checker)
    return (try transaction(from: inner, origin: origin, window: window), verified)
  }
}

extension JSONLinesBatchImport.Source where P == AppStoreTransactionImporter.Packer {
  /// The read of `path` on its own (tests) checking signatures with `verifier`: times within
  /// ``StoreTimeWindow/standalone``. A run hands its packers the window of its T instead.
  package convenience init(
    path: String, displayName: String, settings verifier: JWSVerifier,
    chunkBytes: Int = JSONLinesBatchImport.chunkSize, checksums: Bool = false
  ) {
    self.init(
      path: path, displayName: displayName,
      settings: AppStoreTransactionImporter.Settings(verifier: verifier),
      chunkBytes: chunkBytes,
      checksums: checksums)
  }
}
