/// The ledger's arrays as buffers, for the crediting pass's inner loops: reading an array property of
/// the ledger (a class) retains and releases the array on every access; a view reads it directly.
///
/// Valid only inside ``with(_:_:)``, while the ledger is not changed (the readout only reads it).
struct LedgerView {
  let storage: LedgerStorage
  let chains: UnsafeBufferPointer<ChainState>
  let order: UnsafeBufferPointer<UInt32>
  let records: UnsafeMutableBufferPointer<PackedRecord>
  let statuses: UnsafeBufferPointer<StatusRecord>

  /// Calls `body` with a view of `storage`.
  static func with<R>(_ storage: LedgerStorage, _ body: (LedgerView) -> R) -> R {
    storage.chains.withUnsafeBufferPointer { chains in
      storage.order.withUnsafeBufferPointer { order in
        storage.statuses.withUnsafeBufferPointer { statuses in
          body(
            LedgerView(
              storage: storage, chains: chains, order: order, records: storage.records.buffer,
              statuses: statuses))
        }
      }
    }
  }

  /// The ledger's text pool and product table.
  var pool: TextPool { storage.pool }
  var products: ProductTable { storage.products }

  /// The record at position `k` of the ledger's record order.
  @inline(__always) func record(at k: Int) -> PackedRecord { records[Int(order[k])] }

  /// Positions of chain `c`'s purchases, refunds and voids in the record order.
  @inline(__always)
  func purchases(_ c: Int) -> Range<Int> { chains[c].purchaseRange }

  @inline(__always)
  func refunds(_ c: Int) -> Range<Int> { chains[c].refundRange }

  @inline(__always)
  func voids(_ c: Int) -> Range<Int> { chains[c].voidRange }

  /// The tax of record `n` (0 when it states none), as ``LedgerStorage/tax(_:)``.
  @inline(__always)
  func tax(_ n: Int) -> Int64 {
    let r = records[n]
    if r.flags.contains(.taxInExtra) { return r.extra }
    return r.flags.contains(.rare) ? storage.tax(n) : 0
  }
}
