import StoreReconPlatform

// Safety: the rows written lie inside the part's window (a precondition of PartSlots, debug and
// release); the window is valid only inside the parallel fill that made it.

extension LedgerStorage {
  /// ``chainIndexes(_:into:_:)`` into one part's window of a parallel fill: the chains that rows `rows`
  /// name (-1 for none), into `out[rows]`, which must lie in the window's range.
  @inline(__always)
  func chainIndexes(
    _ rows: Range<Int>, into out: PartSlots<Int32>, _ query: (Int) -> (store: Store, key: PackedID)?
  ) {
    out.withUnsafeMutableBufferPointer(covering: rows) { chainIndexes(rows, into: $0, query) }
  }
}
