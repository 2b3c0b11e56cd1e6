// Safety: the buffers are the caller's arrays and a temporary block, valid for the call. Preconditions
// (debug and release): the rows are whole vectors of `lanes` and the sums one vector; there are no more
// payers than users, and users fit an Int32; a drawn index past the payers adds nothing.

extension Bootstrap {
  /// Draws one per-draw resample: `users` uniform draws of a user, one after another, from the
  /// counter-based stream at `state` (moved past them), adding each drawn payer's row (`lanes` vectors
  /// of `rows`, payer after payer; a draw past the payers adds zero). Leaves the sums in `sums` (`lanes`
  /// vectors).
  ///
  /// Draws go in blocks of 512: first the random numbers, keeping (without branching) the indexes that
  /// land on a payer, then the payers' rows are added. Same draws, same order of additions.
  static func drawResample(
    users: Int, rows: [SIMD8<Int64>], lanes: Int, state: inout UInt64, into sums: inout [SIMD8<Int64>]
  ) {
    precondition(lanes > 0 && rows.count % lanes == 0 && sums.count == lanes, "drawResample: bad rows")
    let payerCount = rows.count / lanes
    precondition(payerCount <= users && users <= Int(Int32.max), "drawResample: more payers than users")
    let block = 512
    var s = state
    rows.withUnsafeBufferPointer { rows in
      sums.withUnsafeMutableBufferPointer { sums in
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: block) { picked in
          for l in 0..<lanes { sums[l] = SIMD8() }
          var acc = SIMD8<Int64>()
          var remaining = users
          while remaining > 0 {
            let n = min(block, remaining)
            remaining -= n
            var kept = 0
            for _ in 0..<n {
              s = s &+ SeededGenerator.gamma
              let z = SeededGenerator.mix(s)
              let index = Int(truncatingIfNeeded: z.multipliedFullWidth(by: UInt64(users)).high)
              picked[kept] = Int32(truncatingIfNeeded: index)
              // index < payerCount, as arithmetic: a branch here would be mispredicted constantly.
              kept &+= Int(bitPattern: UInt(bitPattern: index &- payerCount) >> 63)
            }
            if lanes == 1 {
              for j in 0..<kept { acc &+= rows[Int(picked[j])] }
            } else {
              for j in 0..<kept {
                let base = Int(picked[j]) * lanes
                for l in 0..<lanes { sums[l] &+= rows[base + l] }
              }
            }
          }
          if lanes == 1 { sums[0] = acc }
        }
      }
    }
    state = s
  }

  /// Draws one multinomial resample of `users` users over the distinct rows (see the type's notes):
  /// count₁ ~ B(N, c₁/N), then countₖ ~ B(N − drawn so far, cₖ / (N − c₁ − … − cₖ₋₁)), the last row
  /// taking what remains, each from `draws`; leaves Σ countₖ × rowₖ (exact, in Int64) in `sums`
  /// (`distinct.lanes` vectors).
  static func multinomialResample(
    users: Int, distinct: DistinctRows, using draws: inout SeededGenerator, into sums: inout [SIMD8<Int64>]
  ) {
    let lanes = distinct.lanes
    let counts = distinct.counts
    let categories = counts.count
    precondition(
      sums.count == lanes && distinct.rows.count == categories * lanes, "multinomialResample: bad rows")
    distinct.rows.withUnsafeBufferPointer { rows in
      sums.withUnsafeMutableBufferPointer { sums in
        for l in 0..<lanes { sums[l] = SIMD8() }
        var remaining = users
        var weight = users
        for k in 0..<categories where remaining > 0 {
          let count =
            k == categories - 1
            ? remaining
            : Binomial.draw(trials: remaining, probability: Double(counts[k]) / Double(weight), using: &draws)
          if count > 0 {
            let times = SIMD8<Int64>(repeating: Int64(count))
            for l in 0..<lanes { sums[l] &+= times &* rows[k * lanes + l] }
          }
          remaining -= count
          weight -= counts[k]
        }
      }
    }
  }
}
