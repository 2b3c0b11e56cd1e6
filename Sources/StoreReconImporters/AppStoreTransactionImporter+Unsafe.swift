import StoreReconPlatform
package import StoreReconCore
package import StoreReconIO

// The line-level entry points: each line a buffer into the read's chunk (or line reader), valid during
// the call — the batch import's packer and the full path's transaction of a line.
extension AppStoreTransactionImporter {
  /// Packs lines: the fast path where it applies, else the full path's record.
  package struct Packer: JSONLinePacker {
    let fast = AppStoreFastPath()
    var cache = AppStoreFastPath.PackCache()
    /// A compact JWS line's decoded payload.
    let payload = GrowableBuffer<UInt8>()

    package init() {}

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
      if fast.pack(line, into: batch, cache: &cache) { return }
      // A compact JWS whose payload is a plain transaction object: what the full path makes of it (it
      // parses the payload as it parses a line, and unwraps nothing when the object is no wrapper).
      let first = line.first ?? 0
      if first != 0x7B && first != 0x5B && first != 0x22, let object = JWS.payload(line, into: payload),
        fast.pack(object, into: batch, cache: &cache)
      {
        return
      }
      batch.add(try AppStoreTransactionImporter.transaction(line: line, origin: Origin(file: -1, line: 0)))
    }
  }

  /// The transaction one line holds (JSON or compact JWS), or why it is rejected.
  package static func transaction(line: UnsafeBufferPointer<UInt8>, origin: Origin) throws(RowRejection)
    -> StoreTransaction
  {
    let first = line.first ?? 0
    let isJSON = first == 0x7B || first == 0x5B || first == 0x22
    if !isJSON, let payload = JWS.payload(line) {
      let value: JSONValue
      do {
        value = try JSONParser.parse(payload)
      } catch {
        throw RowRejection("JWS payload is not valid JSON: \(error)")
      }
      return try transaction(from: try unwrap(value, depth: 1), origin: origin)
    }
    let value = try JSONLinesImport.parse(line)
    return try transaction(from: try unwrap(value, depth: 0), origin: origin)
  }
}
