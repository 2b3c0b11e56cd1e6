/// The distinct value rows of a bootstrap's users and how many users have each: the categories of the
/// multinomial bootstrap (see ``Bootstrap``).
///
/// The users beyond the payers have the all-zero row (counted with any payer whose row is all zero).
/// Rows are in a fixed order that depends on the data alone: most users first, ties by the row's
/// values (column by column, ascending).
struct DistinctRows {
  /// Vectors per row (8 columns each).
  let lanes: Int
  /// Row `k` is `rows[k * lanes ..< (k + 1) * lanes]`.
  private(set) var rows: [SIMD8<Int64>] = []
  /// Users with row `k` (all > 0; they sum to the number of users).
  private(set) var counts: [Int] = []

  /// Groups the payers' rows (`lanes` vectors each, payer after payer) of `users` users; `nil` when
  /// there are more than `limit` distinct rows, or more payers than users.
  init?(users: Int, payers: [SIMD8<Int64>], lanes: Int, limit: Int) {
    self.lanes = lanes
    guard lanes > 0 else { return nil }
    let payerCount = payers.count / lanes
    guard payerCount <= users, limit >= 1 else { return nil }
    // Open addressing over row numbers of the first payer with each row; at most half full.
    var capacity = 16
    while capacity < 2 * (limit + 1) { capacity <<= 1 }
    let mask = capacity - 1
    var slots = [Int32](repeating: -1, count: capacity)
    var first: [Int32] = []
    var found: [Int] = []
    var zeroPayers = 0
    var fits = true
    scan: for p in 0..<payerCount {
      let base = p * lanes
      var hash: UInt64 = 0
      var zero = true
      for l in 0..<lanes {
        let v = payers[base + l]
        if v != SIMD8() { zero = false }
        for c in 0..<8 { hash = SeededGenerator.mix(hash ^ UInt64(bitPattern: v[c])) }
      }
      if zero {
        zeroPayers += 1
        continue
      }
      var slot = Int(truncatingIfNeeded: hash) & mask
      while true {
        let k = Int(slots[slot])
        if k < 0 {
          guard first.count < limit else {
            fits = false
            break scan
          }
          slots[slot] = Int32(first.count)
          first.append(Int32(p))
          found.append(1)
          break
        }
        let other = Int(first[k]) * lanes
        var same = true
        for l in 0..<lanes where payers[other + l] != payers[base + l] {
          same = false
          break
        }
        if same {
          found[k] += 1
          break
        }
        slot = (slot + 1) & mask
      }
    }
    let zeroUsers = users - payerCount + zeroPayers
    guard fits, first.count + (zeroUsers > 0 ? 1 : 0) <= limit else { return nil }
    var values: [SIMD8<Int64>] = []
    values.reserveCapacity((first.count + 1) * lanes)
    for p in first { values.append(contentsOf: payers[Int(p) * lanes..<(Int(p) + 1) * lanes]) }
    if zeroUsers > 0 {
      values.append(contentsOf: repeatElement(SIMD8(), count: lanes))
      found.append(zeroUsers)
    }
    var order = Array(found.indices)
    order.sort { a, b in
      if found[a] != found[b] { return found[a] > found[b] }
      for l in 0..<lanes {
        let x = values[a * lanes + l]
        let y = values[b * lanes + l]
        for c in 0..<8 where x[c] != y[c] { return x[c] < y[c] }
      }
      return false
    }
    rows.reserveCapacity(values.count)
    for k in order {
      rows.append(contentsOf: values[k * lanes..<(k + 1) * lanes])
      counts.append(found[k])
    }
  }
}
