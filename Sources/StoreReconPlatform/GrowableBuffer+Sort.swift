extension GrowableBuffer {
  /// Sorts the elements from `start` to the end in place by `less`, stably (elements where neither is
  /// less keep their order): an insertion sort for up to 32 elements (a few rows of one key, the usual
  /// case), else a sort of their positions.
  @inlinable
  package func sortTail(from start: Int, by less: (Element, Element) -> Bool) {
    precondition(start >= 0 && start <= count, "GrowableBuffer.sortTail: start out of range")
    let n = count - start
    guard n > 1, let base else { return }
    let rows = UnsafeMutableBufferPointer(start: base + start, count: n)
    if n <= 32 {
      for i in 1..<n {
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
    var order = Array(0..<n)
    order.sort { a, b in
      if less(rows[a], rows[b]) { return true }
      if less(rows[b], rows[a]) { return false }
      return a < b
    }
    let sorted = order.map { rows[$0] }
    for (i, row) in sorted.enumerated() { rows[i] = row }
  }
}
