import Testing

@testable import StoreReconCore

/// The multinomial bootstrap: grouping of rows, the choice of method, reproducibility, and agreement in
/// distribution with the per-draw bootstrap.
@Suite struct MultinomialBootstrapTests {
  /// `payers` rows over 2 columns taking few values (column 1 is column 0 for every other payer).
  static func fewValues(payers: Int) -> [[Int64]] {
    let prices: [Int64] = [499, 999, 1999, 4999, 12_000]
    return (0..<payers).map { p in
      let v = prices[(p * 7 + p / 3) % prices.count] * Int64(1 + p % 2)
      return [v, p % 2 == 0 ? v : 0]
    }
  }

  static func vectors(_ payers: [[Int64]]) -> [SIMD8<Int64>] {
    payers.map { row in
      var v = SIMD8<Int64>()
      for (c, x) in row.enumerated() { v[c] = x }
      return v
    }
  }

  /// Mean and standard deviation (divisor n − 1) of `values`.
  static func meanAndSD(_ values: [Double]) -> (mean: Double, sd: Double) {
    let mean = values.reduce(0, +) / Double(values.count)
    let squares = values.reduce(0.0) { $0 + ($1 - mean) * ($1 - mean) }
    return (mean, (squares / Double(values.count - 1)).squareRoot())
  }

  @Test func groupsRowsMostUsersFirstWithTheZeroRow() throws {
    let payers: [[Int64]] = [[5, 1], [3, 0], [5, 1], [0, 0], [3, 0], [5, 1], [2, 9]]
    let distinct = try #require(DistinctRows(users: 10, payers: Self.vectors(payers), lanes: 1, limit: 10))
    // Zero row: 3 non-payers + 1 zero payer = 4; [5, 1] ×3; [3, 0] ×2; [2, 9] ×1.
    #expect(distinct.counts == [4, 3, 2, 1])
    #expect(distinct.rows.map { [$0[0], $0[1]] } == [[0, 0], [5, 1], [3, 0], [2, 9]])
    // Ties in count go by the row's values.
    let tied = try #require(
      DistinctRows(users: 4, payers: Self.vectors([[7, 0], [2, 5]]), lanes: 1, limit: 4))
    #expect(tied.counts == [2, 1, 1])
    #expect(tied.rows.map { [$0[0], $0[1]] } == [[0, 0], [2, 5], [7, 0]])
    // Too many distinct rows, or more payers than users: no grouping.
    #expect(DistinctRows(users: 10, payers: Self.vectors(payers), lanes: 1, limit: 3) == nil)
    #expect(DistinctRows(users: 5, payers: Self.vectors(payers), lanes: 1, limit: 10) == nil)
  }

  @Test func groupsRowsOfSeveralLanes() throws {
    // 9 columns: 2 vectors a row; rows differing only in column 8 are distinct.
    var a = [SIMD8<Int64>(repeating: 1), SIMD8<Int64>()]
    var b = a
    b[1][0] = 4
    a[0][3] = 2
    let rows = a + b + a + b + b
    let distinct = try #require(DistinctRows(users: 5, payers: rows, lanes: 2, limit: 5))
    #expect(distinct.counts == [3, 2])
    #expect(Array(distinct.rows[0..<2]) == b && Array(distinct.rows[2..<4]) == a)
  }

  @Test func fewDistinctRowsAreDrawnAsMultinomialCounts() {
    let payers = Self.fewValues(payers: 3000)
    let rows = Self.vectors(payers)
    var generator = SeededGenerator(seed: 4, stream: "e\u{1F}a")
    let got = Bootstrap.means(users: 10_000, rows: rows, columns: 2, iterations: 300, generator: &generator)
    var again = SeededGenerator(seed: 4, stream: "e\u{1F}a")
    let distinct = DistinctRows(users: 10_000, payers: rows, lanes: 1, limit: 10_000 / 16)
    #expect(distinct?.counts.count == 11)  // 5 prices × 2 shapes, and zero
    if let distinct {
      let multinomial = Bootstrap.multinomialMeans(
        users: 10_000, distinct: distinct, columns: 2, iterations: 300, generator: &again)
      #expect(got == multinomial)
    }
    // One seed per resample drawn from the arm's generator.
    var after = SeededGenerator(seed: 4, stream: "e\u{1F}a")
    for _ in 0..<300 { _ = after.next() }
    #expect(generator.next() == after.next())
    // Every resample's total is a sum of whole rows: column 0 minus column 1 is a sum of odd payers' values.
    #expect(got[0].count == 300 && got[1].count == 300)
    #expect(zip(got[0], got[1]).allSatisfy { $0 >= $1 })
  }

  @Test func manyDistinctRowsAreDrawnOneUserAtATime() {
    // 2000 distinct rows among 10,000 users: more than users / 16, so per draw.
    let payers = (0..<2000).map { [Int64($0 + 1)] }
    let rows = Self.vectors(payers)
    var generator = SeededGenerator(seed: 8)
    let got = Bootstrap.means(users: 10_000, rows: rows, columns: 1, iterations: 50, generator: &generator)
    var again = SeededGenerator(seed: 8)
    let perDraw = Bootstrap.perDrawMeans(
      users: 10_000, rows: rows, columns: 1, iterations: 50, generator: &again)
    #expect(got == perDraw)
    #expect(generator.next() == again.next())
  }

  @Test func resamplesDoNotDependOnTheSplitOverCores() throws {
    // Enough work for two parts; compared with one resample after another from the same seeds.
    let payers = Self.fewValues(payers: 600)
    let users = 4000
    let iterations = 30_000
    let distinct = try #require(
      DistinctRows(users: users, payers: Self.vectors(payers), lanes: 1, limit: 250))
    var generator = SeededGenerator(seed: 21)
    let got = Bootstrap.multinomialMeans(
      users: users, distinct: distinct, columns: 2, iterations: iterations, generator: &generator)
    var seeds = SeededGenerator(seed: 21)
    var expected: [[Double]] = [[], []]
    for _ in 0..<iterations {
      var draws = SeededGenerator(seed: seeds.next())
      var remaining = users
      var weight = users
      var sums: [Int64] = [0, 0]
      for (k, count) in distinct.counts.enumerated() where remaining > 0 {
        let x =
          k == distinct.counts.count - 1
          ? remaining
          : Binomial.draw(trials: remaining, probability: Double(count) / Double(weight), using: &draws)
        sums[0] += Int64(x) * distinct.rows[k][0]
        sums[1] += Int64(x) * distinct.rows[k][1]
        remaining -= x
        weight -= count
      }
      expected[0].append(Double(sums[0]) / Double(users))
      expected[1].append(Double(sums[1]) / Double(users))
    }
    #expect(got == expected)
  }

  @Test func agreesInDistributionWithThePerDrawBootstrap() {
    // The bootstrap distribution of a mean over n users: centred on the sample mean, with standard
    // deviation σ/√n (σ the users' standard deviation, divisor n). Both methods must show it.
    let users = 20_000
    let payers = Self.fewValues(payers: 5000)
    let values = payers.map { Double($0[0]) } + Array(repeating: 0.0, count: users - payers.count)
    let mean = values.reduce(0, +) / Double(users)
    let sigma = (values.reduce(0.0) { $0 + ($1 - mean) * ($1 - mean) } / Double(users)).squareRoot()
    let se = sigma / Double(users).squareRoot()
    let iterations = 1500
    let rows = Self.vectors(payers)
    var g1 = SeededGenerator(seed: 2, stream: "m")
    let multinomial = Bootstrap.means(
      users: users, rows: rows, columns: 2, iterations: iterations, generator: &g1)
    var g2 = SeededGenerator(seed: 2, stream: "p")
    let perDraw = Bootstrap.perDrawMeans(
      users: users, rows: rows, columns: 2, iterations: iterations, generator: &g2)
    let m = Self.meanAndSD(multinomial[0])
    let p = Self.meanAndSD(perDraw[0])
    // Centre: within 4 standard errors of the mean of `iterations` resample means.
    let centre = 4 * se / Double(iterations).squareRoot()
    #expect(abs(m.mean - mean) < centre, "multinomial centre \(m.mean) vs \(mean)")
    #expect(abs(p.mean - mean) < centre, "per-draw centre \(p.mean) vs \(mean)")
    // Spread: the sd of 1500 normal-ish values is within ±1.8 % (1 sd); allow 7 %.
    #expect(abs(m.sd / se - 1) < 0.07, "multinomial sd \(m.sd) vs \(se)")
    #expect(abs(p.sd / se - 1) < 0.07, "per-draw sd \(p.sd) vs \(se)")
    // The 95 % percentile intervals agree with each other and with mean ± 1.96 se.
    if let a = Bootstrap.percentileInterval(multinomial[0]), let b = Bootstrap.percentileInterval(perDraw[0])
    {
      #expect(abs(a.low - (mean - 1.96 * se)) < 0.25 * se && abs(a.high - (mean + 1.96 * se)) < 0.25 * se)
      #expect(abs(a.low - b.low) < 0.35 * se && abs(a.high - b.high) < 0.35 * se)
    } else {
      Issue.record("no interval")
    }
    // The second column (every other payer) is resampled by the same draws: it never exceeds the first.
    #expect(zip(multinomial[0], multinomial[1]).allSatisfy { $0 >= $1 })
  }
}
