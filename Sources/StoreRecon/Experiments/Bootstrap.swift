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
    guard users > 0, iterations > 0, columns > 0 else { return Array(repeating: [], count: columns) }
    // One contiguous buffer, row after row: a draw reads neighbouring memory, not a separate array.
    var flat: [Int64] = []
    flat.reserveCapacity(payers.count * columns)
    for row in payers { flat.append(contentsOf: row.prefix(columns)) }
    let payerCount = flat.count / columns
    var result = Array(repeating: [Double](repeating: 0, count: iterations), count: columns)
    var sums = [Int64](repeating: 0, count: columns)
    let n = Double(users)
    flat.withUnsafeBufferPointer { values in
      sums.withUnsafeMutableBufferPointer { sums in
        for iteration in 0..<iterations {
          for c in 0..<columns { sums[c] = 0 }
          for _ in 0..<users {
            let index = generator.below(users)
            guard index < payerCount else { continue }
            let base = index * columns
            for c in 0..<columns { sums[c] &+= values[base + c] }
          }
          for c in 0..<columns { result[c][iteration] = Double(sums[c]) / n }
        }
      }
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
