import Testing

@testable import StoreReconCore

/// Relative lift and probability of being best from bootstrap resamples.
struct ArmComparisonTests {
  @Test func liftIsTheRatioOfMeansMinusOne() {
    let lift = ArmComparison.lift(arm: 1200, control: 1000) ?? 0
    #expect(abs(lift - 0.2) < 1e-12, "\(lift)")
    #expect(ArmComparison.lift(arm: 500, control: 1000) == -0.5)
    #expect(ArmComparison.lift(arm: 500, control: 0) == nil, "a lift over nothing is undefined")
  }

  @Test func liftIntervalPairsTheResamples() throws {
    let control = (1...101).map { _ in 1000.0 }
    let arm = (0...100).map { 1000.0 + Double($0) * 4 }  // lifts 0 % … 40 %
    let interval = try #require(ArmComparison.liftInterval(arm: arm, control: control))
    #expect(abs(interval.low - 0.01) < 1e-12 && abs(interval.high - 0.39) < 1e-12, "\(interval)")
    #expect(ArmComparison.liftInterval(arm: [1, 2], control: [1, 0]) == nil)
    #expect(ArmComparison.liftInterval(arm: [1, 2], control: [1]) == nil)
  }

  @Test func probabilityBestCountsWinsAndSplitsTies() throws {
    let best = try #require(
      ArmComparison.probabilityBest([[1, 5, 3, 2], [2, 4, 3, 1], [0, 0, 0, 0]]))
    // Resample 0: arm 1; 1: arm 0; 2: arms 0 and 1 tie; 3: arm 0.
    #expect(best == [0.625, 0.375, 0])
    #expect(best.reduce(0, +) == 1)
    #expect(ArmComparison.probabilityBest([[1, 2], [1]]) == nil)
    #expect(ArmComparison.probabilityBest([]) == nil)
  }
}
