/// The nonparametric bootstrap of a mean over users, for several value columns at once.
///
/// Users are resampled with replacement, as many as there are; each resample's mean is kept. The
/// same resample serves every column (reporting currency and each charge currency), so the columns'
/// intervals come from one set of draws. Most users pay nothing: only the payers' rows are stored,
/// and a draw of any other user adds zero.
public enum Bootstrap {
  /// Per-resample means: `result[column][iteration]`.
  ///
  /// - Parameters:
  ///   - users: number of users (≥ every payer); draws are uniform over `0..<users`.
  ///   - payers: the value rows of users `0..<payers.count`; every other user's values are zero.
  ///   - columns: values per row.
  public static func means(
    users: Int, payers: [[Int64]], columns: Int, iterations: Int, generator: inout SeededGenerator
  ) -> [[Double]] {
    var flat: [Int64] = []
    flat.reserveCapacity(payers.count * columns)
    for row in payers { flat.append(contentsOf: row.prefix(columns)) }
    return means(users: users, flat: flat, columns: columns, iterations: iterations, generator: &generator)
  }

  /// ``means(users:payers:columns:iterations:generator:)`` with the payers' rows one after another in
  /// `flat` (`columns` values each).
  static func means(
    users: Int, flat: [Int64], columns: Int, iterations: Int, generator: inout SeededGenerator
  ) -> [[Double]] {
    guard columns > 0 else { return [] }
    let lanes = (columns + 7) / 8
    let payerCount = flat.count / columns
    var rows: [SIMD8<Int64>] = []
    rows.reserveCapacity(payerCount * lanes)
    for p in 0..<payerCount {
      for l in 0..<lanes {
        var v = SIMD8<Int64>()
        for c in 0..<8 where l * 8 + c < columns { v[c] = flat[p * columns + l * 8 + c] }
        rows.append(v)
      }
    }
    return means(users: users, rows: rows, columns: columns, iterations: iterations, generator: &generator)
  }

  /// The bootstrap over payers' rows already padded to whole 8-lane vectors (`(columns + 7) / 8` vectors
  /// a payer, one payer after another).
  static func means(
    users: Int, rows: [SIMD8<Int64>], columns: Int, iterations: Int, generator: inout SeededGenerator
  ) -> [[Double]] {
    guard users > 0, iterations > 0, columns > 0 else { return Array(repeating: [], count: columns) }
    let lanes = (columns + 7) / 8
    let payerCount = rows.count / lanes
    let start = generator.currentState
    let n = Double(users)
    // Iterations are independent and the generator is counter-based: cut them into parts by count,
    // each starting from the state the sequential run would have there.
    let parts = Parallel.parts(for: iterations * users, minimum: 4_000_000)
    let results: [[[Double]]] = Parallel.map(parts: min(parts, iterations)) { part -> [[Double]] in
      let range = Parallel.range(part, of: min(parts, iterations), count: iterations)
      var out = Array(repeating: [Double](repeating: 0, count: range.count), count: columns)
      var state = start &+ UInt64(range.lowerBound) &* UInt64(users) &* SeededGenerator.gamma
      rows.withUnsafeBufferPointer { rows in
        var sums = [SIMD8<Int64>](repeating: SIMD8(), count: lanes)
        // Draws go in blocks: first the random numbers, keeping (without branching) the indexes that
        // land on a payer, then the payers' rows are added. Same draws, same order of additions.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 512) { picked in
          for (k, _) in range.enumerated() {
            for l in 0..<lanes { sums[l] = SIMD8() }
            var acc = SIMD8<Int64>()
            var remaining = users
            while remaining > 0 {
              let block = min(512, remaining)
              remaining -= block
              var kept = 0
              for _ in 0..<block {
                state = state &+ SeededGenerator.gamma
                let z = SeededGenerator.mix(state)
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
            for c in 0..<columns { out[c][k] = Double(sums[c / 8][c % 8]) / n }
          }
        }
      }
      return out
    }
    generator.skip(UInt64(iterations) &* UInt64(users))
    var result = Array(repeating: [Double](), count: columns)
    for c in 0..<columns {
      result[c].reserveCapacity(iterations)
      for part in results { result[c].append(contentsOf: part[c]) }
    }
    return result
  }

  /// The percentile interval (2.5 % and 97.5 % by default) of `values`, by linear interpolation between
  /// order statistics (Hyndman–Fan type 7); `nil` when empty.
  public static func percentileInterval(_ values: [Double], level: Double = 0.95) -> Interval? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let tail = (1 - level) / 2
    return Interval(low: quantile(sorted, tail), high: quantile(sorted, 1 - tail))
  }

  /// Type-7 quantile of already sorted values.
  static func quantile(_ sorted: [Double], _ p: Double) -> Double {
    let h = Double(sorted.count - 1) * p
    let lower = Int(h.rounded(.down))
    let upper = min(lower + 1, sorted.count - 1)
    return sorted[lower] + (h - Double(lower)) * (sorted[upper] - sorted[lower])
  }
}
