import StoreReconPlatform

/// The nonparametric bootstrap of a mean over users, for several value columns at once.
///
/// Users are resampled with replacement, as many as there are; each resample's mean is kept. The
/// same resample serves every column (reporting currency and each charge currency), so the columns'
/// intervals come from one set of draws. Most users pay nothing: only the payers' rows are stored,
/// and a draw of any other user adds zero.
///
/// Two ways to draw a resample, with the same distribution (chosen by the data alone, so a run is
/// reproducible):
/// - **Multinomial** (few distinct rows, the usual case: prices take few values): drawing `N` users
///   with replacement only matters through how many times each distinct value row is drawn, and those
///   counts are multinomial (N; cₖ/N) over the distinct rows (cₖ users have row k, the non-payers'
///   all-zero row included). Each resample draws them by conditional binomials — count₁ ~ B(N, c₁/N),
///   then countₖ ~ B(N − drawn so far, cₖ / (N − c₁ − … − cₖ₋₁)) — with the exact sampler of
///   ``Binomial``, and sums countₖ × rowₖ exactly in Int64. Cost per resample: one binomial per
///   distinct row instead of one draw per user. See ``multinomialMeans(users:distinct:columns:iterations:generator:)``.
/// - **Per draw** (many distinct rows): `N` uniform draws of a user, adding the drawn payer's row. See
///   ``perDrawMeans(users:rows:columns:iterations:generator:)``.
package enum Bootstrap {
  /// Per-resample means: `result[column][iteration]`, drawn as multinomial counts of the distinct rows
  /// or one user at a time (see the type's notes).
  ///
  /// - Parameters:
  ///   - users: number of users (≥ every payer); each resample draws `users` users uniformly.
  ///   - payers: the value rows of users `0..<payers.count`; every other user's values are zero.
  ///   - columns: values per row.
  package static func means(
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

  /// Users per distinct row at or above which a resample is drawn as multinomial counts: a binomial
  /// variate (and its row added) costs about as much as 17 single draws of a user (measured with
  /// 277,000 users and 8 columns: both methods take the same time at 17,000 distinct rows; at 350
  /// rows the multinomial one is 80 times faster).
  static let usersPerDistinctRow = 16

  /// The bootstrap over payers' rows already padded to whole 8-lane vectors (`(columns + 7) / 8` vectors
  /// a payer, one payer after another): multinomial when the rows (the non-payers' zero row included)
  /// take at most `users / usersPerDistinctRow` distinct values, else per draw.
  static func means(
    users: Int, rows: [SIMD8<Int64>], columns: Int, iterations: Int, generator: inout SeededGenerator
  ) -> [[Double]] {
    guard users > 0, iterations > 0, columns > 0 else { return Array(repeating: [], count: columns) }
    let lanes = (columns + 7) / 8
    if let distinct = DistinctRows(
      users: users, payers: rows, lanes: lanes, limit: users / usersPerDistinctRow)
    {
      return multinomialMeans(
        users: users, distinct: distinct, columns: columns, iterations: iterations, generator: &generator)
    }
    return perDrawMeans(
      users: users, rows: rows, columns: columns, iterations: iterations, generator: &generator)
  }

  /// The multinomial bootstrap (see the type's notes). The arm's generator gives one 64-bit seed per
  /// resample (it moves `iterations` draws ahead); resample `i` draws its binomials from a generator
  /// seeded with the `i`-th, so the resamples are independent of how they are split over cores.
  static func multinomialMeans(
    users: Int, distinct: DistinctRows, columns: Int, iterations: Int, generator: inout SeededGenerator
  ) -> [[Double]] {
    guard users > 0, iterations > 0, columns > 0 else { return Array(repeating: [], count: columns) }
    let lanes = distinct.lanes
    let categories = distinct.counts.count
    var seeds: [UInt64] = []
    seeds.reserveCapacity(iterations)
    for _ in 0..<iterations { seeds.append(generator.next()) }
    let n = Double(users)
    let parts = min(Parallel.parts(for: iterations * categories, minimum: 100_000), iterations)
    let results: [[[Double]]] = Parallel.map(parts: parts) { part -> [[Double]] in
      let range = Parallel.range(part, of: parts, count: iterations)
      var out = Array(repeating: [Double](repeating: 0, count: range.count), count: columns)
      var sums = [SIMD8<Int64>](repeating: SIMD8(), count: lanes)
      for (j, i) in range.enumerated() {
        var draws = SeededGenerator(seed: seeds[i])
        multinomialResample(users: users, distinct: distinct, using: &draws, into: &sums)
        for c in 0..<columns { out[c][j] = Double(sums[c / 8][c % 8]) / n }
      }
      return out
    }
    var result = Array(repeating: [Double](), count: columns)
    for c in 0..<columns {
      result[c].reserveCapacity(iterations)
      for part in results { result[c].append(contentsOf: part[c]) }
    }
    return result
  }

  /// The per-draw bootstrap: each resample makes `users` uniform draws of a user from the generator,
  /// one after another (iteration by iteration), adding the drawn payer's row; the generator moves
  /// `iterations × users` draws ahead.
  static func perDrawMeans(
    users: Int, rows: [SIMD8<Int64>], columns: Int, iterations: Int, generator: inout SeededGenerator
  ) -> [[Double]] {
    guard users > 0, iterations > 0, columns > 0 else { return Array(repeating: [], count: columns) }
    let lanes = (columns + 7) / 8
    let start = generator.currentState
    let n = Double(users)
    // Iterations are independent and the generator is counter-based: cut them into parts by count,
    // each starting from the state the sequential run would have there.
    let parts = Parallel.parts(for: iterations * users, minimum: 4_000_000)
    let results: [[[Double]]] = Parallel.map(parts: min(parts, iterations)) { part -> [[Double]] in
      let range = Parallel.range(part, of: min(parts, iterations), count: iterations)
      var out = Array(repeating: [Double](repeating: 0, count: range.count), count: columns)
      var state = start &+ UInt64(range.lowerBound) &* UInt64(users) &* SeededGenerator.gamma
      var sums = [SIMD8<Int64>](repeating: SIMD8(), count: lanes)
      for k in 0..<range.count {
        drawResample(users: users, rows: rows, lanes: lanes, state: &state, into: &sums)
        for c in 0..<columns { out[c][k] = Double(sums[c / 8][c % 8]) / n }
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
  package static func percentileInterval(_ values: [Double], level: Double = 0.95) -> Interval? {
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
