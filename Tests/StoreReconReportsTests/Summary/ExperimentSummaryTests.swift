import Testing

@testable import StoreReconCore
@testable import StoreReconReports

/// What a product manager reads about a price test: the verdict in one sentence, conversion and
/// maturity as percentages with the day an arm matures, P(best) tinted, refund counts apart from money.
@Suite struct ExperimentSummaryTests {
  /// The workbook tests' readout: high (87.5 % mature) matures on 14 Dec 2026 at 09:30 UTC.
  static func immatureReadout() throws -> Readout {
    var r = try PriceTestsWorkbookTests.readout()
    r.arms[1].maturesAt = Instant(
      ms: CivilDate(year: 2026, month: 12, day: 14).daysSinceEpoch * 86_400_000 + 34_200_000)
    return r
  }

  @Test func maturityAsAPercentageWithTheDayToWaitFor() throws {
    let r = try Self.immatureReadout()
    #expect(ExperimentSummary.maturityText(r.arms[0], threshold: 0.9) == "100% mature")
    #expect(
      ExperimentSummary.maturityText(r.arms[1], threshold: 0.9) == "87.5% mature — wait until 14 Dec 2026")
    #expect(ExperimentSummary.longDate(Instant(ms: 0)) == "1 Jan 1970")
  }

  @Test func theVerdictInOneSentence() throws {
    let immature = try Self.immatureReadout()
    #expect(
      ExperimentSummary.sentence(immature)
        == "Too early to call: high is 87.5% mature — wait until 14 Dec 2026; read it again on 14 Dec 2026.")
    var leading = try PriceTestsWorkbookTests.readout()
    leading.arms[0].verdict = .control
    leading.arms[1].verdict = .leading
    #expect(
      ExperimentSummary.sentence(leading)
        == "high earns more than control (+10.73 USD per assigned user, +100% [+88.8%, +111%], P(best) 98.8%)"
        + " — high is the one to roll out.")
    let mismatch = try PriceTestsWorkbookTests.readout(p: 2.1e-7)
    #expect(ExperimentSummary.sentence(mismatch).hasPrefix("No winner: the assigned counts do not match"))
  }

  @Test func armFiguresForAPerson() throws {
    let verdict = ExperimentSummary.verdict(try Self.immatureReadout())
    let high = try #require(verdict.arms.last)
    func figure(_ name: String) -> String? { high.figures.first { $0.0 == name }?.1 }
    // 600 paid of 915 assigned: a percentage, never 0.6557.
    #expect(figure("conversion") == "65.6%")
    #expect(figure("P(best)") == "98.8%")
    #expect(high.tints["P(best)"] == .good && verdict.arms[0].tints["P(best)"] == .bad)
    #expect(figure("maturity") == "87.5% mature — wait until 14 Dec 2026")
    // Counts and money in their own columns, each header saying which.
    #expect(figure("refunds (count)") == "1" && figure("refunded (USD)") == "246.91")
  }

  @Test func pBestTints() {
    #expect(ExperimentSummary.bestTint(0.95) == .good && ExperimentSummary.bestTint(0.05) == .bad)
    #expect(ExperimentSummary.bestTint(0.5) == nil && ExperimentSummary.bestTint(0.9499) == nil)
  }

  @Test func progressAndSummaryLinesShowConversionAsAPercentage() throws {
    let r = try Self.immatureReadout()
    #expect(ExperimentSummary.progressLine(r).contains("control 920 (65.2% paid), high 915 (65.6% paid)"))
    let lines = ExperimentSummary.lines([r])
    #expect(lines.contains { $0.hasPrefix("  high: 915 assigned, 600 paid (65.6%), ") })
    #expect(lines.contains { $0.contains("; 87.5% mature — wait until 14 Dec 2026 — immature") })
  }
}
