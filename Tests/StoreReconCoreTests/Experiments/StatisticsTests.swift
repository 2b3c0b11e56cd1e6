import Testing

@testable import StoreReconCore

/// Intervals and p-values against published or independently computed values.
@Suite struct StatisticsTests {
  static func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
  }

  // Newcombe R. G. (1998), "Two-sided confidence intervals for the single proportion: comparison of
  // seven methods", Statistics in Medicine 17:857–872, Table II, method 3 (Wilson score, no continuity
  // correction), printed to 4 places: 81/263 0.2553–0.3662; 15/148 0.0624–0.1605; 0/20 0–0.1611;
  // 1/29 0.0061–0.1718. The full-precision values and 0/10, 5/10, 10/10 were computed independently
  // with SciPy 1.17 (z = scipy.stats.norm.ppf(0.975), the closed form of Wilson 1927).
  @Test(arguments: [
    (81, 263, 0.2552885198782742, 0.36620957698280004),
    (15, 148, 0.0623863995307363, 0.16048724172330803),
    (0, 20, 0.0, 0.16112515805281938),
    (1, 29, 0.006113214292762653, 0.17175521879320288),
    (0, 10, 0.0, 0.2775327998628892),
    (5, 10, 0.236593090512564, 0.7634069094874361),
    (10, 10, 0.7224672001371107, 1.0),
  ])
  func wilsonIntervalMatchesPublishedValues(successes: Int, trials: Int, low: Double, high: Double) throws {
    let interval = try #require(WilsonInterval.interval(successes: successes, trials: trials))
    #expect(Self.close(interval.low, low, 1e-12), "\(successes)/\(trials) low \(interval.low)")
    #expect(Self.close(interval.high, high, 1e-12), "\(successes)/\(trials) high \(interval.high)")
  }

  @Test func wilsonIntervalRoundedAsNewcombePrintsIt() throws {
    let interval = try #require(WilsonInterval.interval(successes: 81, trials: 263))
    #expect((interval.low * 10_000).rounded() == 2553)
    #expect((interval.high * 10_000).rounded() == 3662)
    #expect(WilsonInterval.interval(successes: 0, trials: 0) == nil)
  }

  // Chi-square upper tail: textbook critical values (3.841 / 10.828 for df 1 at 0.05 / 0.001; 5.991 for
  // df 2 at 0.05) and SciPy's scipy.stats.chi2.sf for the rest.
  @Test(arguments: [
    (3.84, 1, 0.05004352124870519),
    (3.841458820694124, 1, 0.05),
    (10.83, 1, 0.0009986863791802592),
    (5.991, 2, 0.05001161502657909),
    (0.5, 1, 0.47950012218695337),
    (1.0, 10, 0.9998278843700441),
    (30.0, 20, 0.06985366069940986),
    (100.0, 3, 1.5541594313896026e-21),
  ])
  func chiSquareSurvivalMatchesKnownValues(statistic: Double, df: Int, p: Double) {
    let value = ChiSquare.survival(statistic, degreesOfFreedom: df)
    #expect(abs(value - p) <= max(1e-12, p * 1e-9), "chi2=\(statistic) df=\(df): \(value)")
  }

  @Test func srmTestOfAssignedCounts() throws {
    // 50/50 intended, 5000 vs 5000: no mismatch; 5000 vs 5300: chi2 = 300²/5150·2/… ≈ 8.74, p ≈ 0.0031.
    let even = try #require(ChiSquare.goodnessOfFit(observed: [5000, 5000], weights: [50, 50]))
    #expect(even.statistic == 0 && even.pValue == 1)
    let skewed = try #require(ChiSquare.goodnessOfFit(observed: [5000, 5300], weights: [50, 50]))
    #expect(abs(skewed.statistic - 8.737864077669903) < 1e-9)
    #expect(skewed.pValue > 0.001 && skewed.pValue < 0.01)
    let broken = try #require(ChiSquare.goodnessOfFit(observed: [5000, 5600], weights: [1, 1]))
    #expect(broken.pValue < 0.001)
    // Unequal weights: 2:1 intended and observed exactly so.
    #expect(ChiSquare.goodnessOfFit(observed: [200, 100], weights: [2, 1])?.pValue == 1)
    #expect(ChiSquare.goodnessOfFit(observed: [0, 0], weights: [1, 1]) == nil)
  }

  // scipy.stats.t.ppf
  @Test(arguments: [
    (0.975, 1.0, 12.706204736174694), (0.975, 2.0, 4.302652729749462), (0.975, 10.0, 2.228138851986274),
    (0.975, 30.0, 2.0422724563012378), (0.975, 1000.0, 1.9623390808264083), (0.975, 4.5, 2.6589123472044034),
    (0.995, 3.0, 5.840909309733355),
  ])
  func studentQuantileMatchesSciPy(p: Double, df: Double, t: Double) {
    #expect(abs(StudentT.quantile(p, degreesOfFreedom: df) - t) < 1e-9 * t)
  }

  @Test func welchIntervalsMatchSciPy() throws {
    // Per-user revenue in minor units; scipy.stats.ttest_ind(b, a, equal_var=False).confidence_interval().
    let a: [Int64] = [0, 0, 0, 499, 998, 0, 1497, 0, 499, 0, 0, 499]
    let b: [Int64] = [0, 699, 0, 0, 1398, 0, 0, 699, 0, 2097]
    let sa = SampleSummary(users: a.count, nonZero: a.filter { $0 != 0 })
    let sb = SampleSummary(users: b.count, nonZero: b.filter { $0 != 0 })
    #expect(Self.close(sa.mean, 332.6666666666667))
    #expect(Self.close(sa.variance, 241455.51515151514, 1e-6))
    let one = try #require(WelchInterval.mean(sa))
    #expect(Self.close(one.low, 20.45792693735598, 1e-7) && Self.close(one.high, 644.8754063959774, 1e-7))
    let diff = try #require(WelchInterval.difference(sb, sa))
    #expect(Self.close(diff.degreesOfFreedom, 15.148289414184907, 1e-9))
    #expect(Self.close(diff.interval.low, -426.4088117469887, 1e-7))
    #expect(Self.close(diff.interval.high, 739.6754784136554, 1e-7))
  }

  @Test func bootstrapIsSeededAndReproducible() throws {
    let payers: [[Int64]] = [[499, 499], [998, 998], [1497, 0]]
    var g1 = SeededGenerator(seed: 1, stream: "exp\u{1F}control")
    var g2 = SeededGenerator(seed: 1, stream: "exp\u{1F}control")
    var g3 = SeededGenerator(seed: 2, stream: "exp\u{1F}control")
    let m1 = Bootstrap.means(users: 10, payers: payers, columns: 2, iterations: 500, generator: &g1)
    let m2 = Bootstrap.means(users: 10, payers: payers, columns: 2, iterations: 500, generator: &g2)
    let m3 = Bootstrap.means(users: 10, payers: payers, columns: 2, iterations: 500, generator: &g3)
    #expect(m1 == m2)
    #expect(m1 != m3)
    let interval = try #require(Bootstrap.percentileInterval(m1[0]))
    // The sample mean is 299.4; the resampled means straddle it.
    #expect(interval.low < 299.4 && interval.high > 299.4 && interval.low >= 0)
    // The second column never exceeds the first (it lacks the 1497 payer).
    #expect(zip(m1[0], m1[1]).allSatisfy { $0 >= $1 })
    // Type-7 quantiles of 1…5: 2.5 % → 1.1, 97.5 % → 4.9.
    let q = try #require(Bootstrap.percentileInterval([5, 3, 1, 4, 2]))
    #expect(Self.close(q.low, 1.1) && Self.close(q.high, 4.9))
  }
}

@Suite struct BootstrapSplitTests {
  /// The bootstrap as first written: one draw after another from one generator.
  static func reference(users: Int, payers: [[Int64]], columns: Int, iterations: Int, seed: UInt64)
    -> [[Double]]
  {
    var generator = SeededGenerator(seed: seed, stream: "x")
    var result = Array(repeating: [Double](repeating: 0, count: iterations), count: columns)
    for iteration in 0..<iterations {
      var sums = [Int64](repeating: 0, count: columns)
      for _ in 0..<users {
        let index = generator.below(users)
        guard index < payers.count else { continue }
        for c in 0..<columns { sums[c] &+= payers[index][c] }
      }
      for c in 0..<columns { result[c][iteration] = Double(sums[c]) / Double(users) }
    }
    return result
  }

  @Test(arguments: [(1, 1), (9, 3), (17, 9)])
  func splitDrawsEqualOneGeneratorsDraws(columns: Int, payerCount: Int) {
    let users = 40_000
    var payers: [[Int64]] = []
    for p in 0..<payerCount * 1000 {
      var row: [Int64] = []
      for c in 0..<columns { row.append(Int64((p * 7 + c * 13) % 1000) - 300) }
      payers.append(row)
    }
    // The per-draw method (these rows take up to 1000 distinct values: few enough for the multinomial one).
    let rows = payers.map { row in
      (0..<((columns + 7) / 8)).map { l in
        var v = SIMD8<Int64>()
        for c in 0..<8 where l * 8 + c < columns { v[c] = row[l * 8 + c] }
        return v
      }
    }.flatMap { $0 }
    var generator = SeededGenerator(seed: 9, stream: "x")
    let got = Bootstrap.perDrawMeans(
      users: users, rows: rows, columns: columns, iterations: 300, generator: &generator)
    #expect(got == Self.reference(users: users, payers: payers, columns: columns, iterations: 300, seed: 9))
    var after = SeededGenerator(seed: 9, stream: "x")
    for _ in 0..<(300 * users) { _ = after.next() }
    #expect(generator.next() == after.next())
  }
}
