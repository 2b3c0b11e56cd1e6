import StoreReconPlatform

// Safety: the sort works in place on the buffer's own rows from `start` on, within the call.
// Precondition (debug and release): `start` lies within the rows.

extension CreditedCharges {
  /// Sorts `items` from `start` to the end in place by `less`, stably (rows where neither is less keep
  /// their order): an insertion sort for up to 32 rows (the few rows of one user, the usual case), else
  /// a sort of their positions.
  @inline(always)
  static func sortTail(_ items: GrowableBuffer<Packed>, from start: Int, by less: (Packed, Packed) -> Bool) {
    let all = items.buffer
    precondition(start >= 0 && start <= all.count, "CreditedCharges.sortTail: start out of range")
    let rows = UnsafeMutableBufferPointer(rebasing: all[start...])
    guard rows.count > 1 else { return }
    if rows.count <= 32 {
      for i in 1..<rows.count {
        let row = rows[i]
        var j = i
        while j > 0 && less(row, rows[j - 1]) {
          rows[j] = rows[j - 1]
          j -= 1
        }
        rows[j] = row
      }
      return
    }
    var order = Array(0..<rows.count)
    order.sort { a, b in
      if less(rows[a], rows[b]) { return true }
      if less(rows[b], rows[a]) { return false }
      return a < b
    }
    let sorted = order.map { rows[$0] }
    for (i, row) in sorted.enumerated() { rows[i] = row }
  }
}
