import Foundation
import Testing

@testable import StoreReconCore

/// The binomial sampler against the exact binomial pmf.
@Suite struct BinomialTests {
  /// log P(X = k) for X ~ B(n, p), 0 < p < 1.
  static func logPMF(_ k: Int, _ n: Int, _ p: Double) -> Double {
    lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1)) + Double(k) * log(p)
      + Double(n - k) * log1p(-p)
  }

  /// Pearson's chi-square test of `draws` samples against B(n, p), cells merged left to right until
  /// each expects at least 20; returns the p-value, the sample mean and the number of cells.
  static func goodnessOfFit(n: Int, p: Double, draws: Int, seed: UInt64) -> (
    pValue: Double, mean: Double, cells: Int
  ) {
    var generator = SeededGenerator(seed: seed, stream: "binomial")
    let mean = Double(n) * p
    let sd = (Double(n) * p * (1 - p)).squareRoot()
    let low = max(0, Int(mean - 14 * sd) - 20)
    let high = min(n, Int(mean + 14 * sd) + 20)
    var observed = [Int](repeating: 0, count: high - low + 1)
    var total = 0.0
    for _ in 0..<draws {
      let x = Binomial.draw(trials: n, probability: p, using: &generator)
      precondition(x >= 0 && x <= n, "out of range: \(x)")
      total += Double(x)
      observed[min(max(x, low), high) - low] += 1
    }
    var cells: [(observed: Int, expected: Double)] = []
    var cellObserved = 0
    var cellExpected = 0.0
    for k in low...high {
      cellObserved += observed[k - low]
      cellExpected += Double(draws) * exp(logPMF(k, n, p))
      if cellExpected >= 20 {
        cells.append((cellObserved, cellExpected))
        cellObserved = 0
        cellExpected = 0
      }
    }
    if let last = cells.popLast() {
      cells.append((last.observed + cellObserved, last.expected + cellExpected))
    }
    let statistic = cells.reduce(0.0) { sum, cell in
      let d = Double(cell.observed) - cell.expected
      return sum + d * d / cell.expected
    }
    let pValue = ChiSquare.survival(statistic, degreesOfFreedom: cells.count - 1)
    return (pValue, total / Double(draws), cells.count)
  }

  @Test(arguments: [
    (2, 0.5), (20, 0.3), (1000, 0.005), (277_000, 0.00003), (60, 0.9),  // inversion (n·min(p, 1−p) < 10)
    (1000, 0.0105), (100, 0.4), (277_000, 0.0012), (5000, 0.75), (1_000_000, 0.5), (40, 0.5),  // BTRS
  ])
  func drawsFollowTheBinomialPMF(n: Int, p: Double) {
    let draws = 100_000
    let fit = Self.goodnessOfFit(n: n, p: p, draws: draws, seed: UInt64(n) &* 31 &+ UInt64(p * 1e6))
    #expect(fit.cells >= 2, "n=\(n) p=\(p): \(fit.cells) cells")
    #expect(fit.pValue > 1e-4, "n=\(n) p=\(p): chi-square p = \(fit.pValue)")
    let se = (Double(n) * p * (1 - p) / Double(draws)).squareRoot()
    #expect(abs(fit.mean - Double(n) * p) < 5 * se, "n=\(n) p=\(p): mean \(fit.mean)")
  }

  @Test func wrongDistributionsFailTheTest() {
    // The check has power: draws of B(100, 0.4) tested against B(100, 0.41) fail it.
    var generator = SeededGenerator(seed: 5)
    var observed = [Int](repeating: 0, count: 101)
    for _ in 0..<100_000 { observed[Binomial.draw(trials: 100, probability: 0.4, using: &generator)] += 1 }
    var statistic = 0.0
    var cells = 0
    for k in 0...100 {
      let expected = 100_000 * exp(Self.logPMF(k, 100, 0.41))
      guard expected >= 20 else { continue }
      let d = Double(observed[k]) - expected
      statistic += d * d / expected
      cells += 1
    }
    #expect(ChiSquare.survival(statistic, degreesOfFreedom: cells - 1) < 1e-6)
  }

  @Test func degenerateCases() {
    var generator = SeededGenerator(seed: 3)
    for _ in 0..<100 {
      #expect(Binomial.draw(trials: 0, probability: 0.3, using: &generator) == 0)
      #expect(Binomial.draw(trials: 25, probability: 0, using: &generator) == 0)
      #expect(Binomial.draw(trials: 25, probability: 1, using: &generator) == 25)
      #expect(Binomial.draw(trials: 1, probability: 1e-300, using: &generator) == 0)
    }
  }

  @Test func sameSeedSameDraws() {
    var a = SeededGenerator(seed: 11, stream: "s")
    var b = SeededGenerator(seed: 11, stream: "s")
    var c = SeededGenerator(seed: 12, stream: "s")
    let x = (0..<200).map { Binomial.draw(trials: 5000 + $0, probability: 0.013, using: &a) }
    let y = (0..<200).map { Binomial.draw(trials: 5000 + $0, probability: 0.013, using: &b) }
    let z = (0..<200).map { Binomial.draw(trials: 5000 + $0, probability: 0.013, using: &c) }
    #expect(x == y)
    #expect(x != z)
  }

  @Test func stirlingTailIsLogFactorialMinusStirling() {
    for k in 0..<40 {
      let kd = Double(k)
      let stirling: Double = (kd + 0.5) * log(kd + 1) - (kd + 1) + 0.5 * log(2 * Double.pi)
      let exact: Double = lgamma(kd + 1) - stirling
      #expect(abs(Binomial.stirlingTail(k) - exact) < 1e-12, "k=\(k)")
    }
  }

  @Test func unitIsInsideTheOpenInterval() {
    var generator = SeededGenerator(seed: 0)
    var sum = 0.0
    for _ in 0..<100_000 {
      let u = generator.unit()
      #expect(u > 0 && u < 1)
      sum += u
    }
    #expect(abs(sum / 100_000 - 0.5) < 0.005)
  }
}
