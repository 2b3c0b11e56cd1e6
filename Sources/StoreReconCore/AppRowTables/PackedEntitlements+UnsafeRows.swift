// Safety: the rows buffer is the table's own array, valid inside `withRows` only (the view is
// ~Copyable and borrowed). Every row index is checked in debug builds (an assertion: a per-row check).

extension PackedEntitlements {
  /// The table's rows read in place, for the rules' passes over every row: a field of a row is read
  /// without copying the row (and retaining its texts) or checking its index against the array in
  /// release builds.
  ///
  /// A view exists only inside ``withRows(_:)``, borrowed: it cannot be copied or kept beyond the call.
  /// Each read checks its index in debug builds (an assertion, as the ledger's buffers do: a per-row
  /// check on the hot path).
  struct Rows: ~Copyable {
    private let rows: UnsafeBufferPointer<Row>

    fileprivate init(_ rows: UnsafeBufferPointer<Row>) { self.rows = rows }

    /// The number of rows.
    var count: Int { rows.count }

    /// Row `i`.
    subscript(i: Int) -> Row {
      @inline(__always) unsafeAddress {
        assert(i >= 0 && i < rows.count, "PackedEntitlements.Rows: row out of range")
        return rows.baseAddress.unsafelyUnwrapped + i
      }
    }
  }

  /// Calls `body` with a view of the rows.
  @inline(__always)
  func withRows<R>(_ body: (borrowing Rows) -> R) -> R {
    rows.withUnsafeBufferPointer { body(Rows($0)) }
  }
}
