/// What the readout asks of a ``LedgerView`` beyond its arrays: records by their place in a chain, the
/// chains' record ranges, a record's tax, and the ledger's texts.
extension LedgerView {
  /// The ledger's text pool and product table.
  var pool: TextPool { storage.pool }
  var products: ProductNames { storage.products }

  /// The record at position `k` of the ledger's record order.
  @inline(__always) func record(at k: Int) -> PackedRecord { record(number: recordNumber(at: k)) }

  /// Positions of chain `c`'s purchases, refunds and voids in the record order.
  @inline(__always)
  func purchases(_ c: Int) -> Range<Int> { chain(c).purchaseRange }

  @inline(__always)
  func refunds(_ c: Int) -> Range<Int> { chain(c).refundRange }

  @inline(__always)
  func voids(_ c: Int) -> Range<Int> { chain(c).voidRange }

  /// Chain `c`'s Play resource, if it has one.
  @inline(__always)
  func status(ofChain c: Int) -> StatusRecord? {
    let status = chain(c).status
    return status >= 0 ? self.status(Int(status)) : nil
  }

  /// The tax of record `n` (0 when it states none), as ``LedgerStorage/tax(_:)``.
  @inline(__always)
  func tax(_ n: Int) -> Int64 {
    let r = record(number: n)
    if r.flags.contains(.taxInExtra) { return r.extra }
    return r.flags.contains(.rare) ? storage.tax(n) : 0
  }
}
