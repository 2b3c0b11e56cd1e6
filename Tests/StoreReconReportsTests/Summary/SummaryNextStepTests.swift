import Testing

@testable import StoreReconCore
@testable import StoreReconReports

/// The summary's what-to-do lines (docs/reports.md#what-to-do-and-docs): one per reason listed in the
/// Findings section, one for rejected rows in the Inputs section; text indented, HTML a line and a link.
struct SummaryNextStepTests {
  typealias R = ReportSummaryTests

  static func lines(_ text: String, after title: String) -> [String] {
    let lines = text.components(separatedBy: "\n")
    guard let start = lines.firstIndex(of: title) else { return [] }
    return Array(lines[(start + 2)...].prefix { !$0.isEmpty })
  }

  @Test func eachReasonListedCarriesItsStep() throws {
    let facts = R.facts([
      R.finding(.unclaimed, "u1", R.usd, 499), R.finding(.refunded, "u2", R.usd, 999),
      R.finding(.refunded, "u3", R.usd, 999),
    ])
    let summary = ReportSummary.build(facts)
    let findings = Self.lines(summary.unwrappedText, after: "Findings (3)")
    let unclaimed = try #require(NextStep.of(.unclaimed))
    let refunded = try #require(NextStep.of(.refunded))
    let start = try #require(findings.firstIndex(of: "What to do:"), "\(findings)")
    #expect(
      Array(findings[start...].prefix(5)) == [
        "What to do:",
        "  orphaned_charge/unclaimed — docs/rules.md#orphaned_chargeunclaimed",
        "    " + unclaimed.whatToDo,
        "  free_entitlement/refunded — docs/rules.md#free_entitlementrefunded",
        "    " + refunded.whatToDo,
      ])
    // Only the reasons listed: nothing about a reason without findings.
    #expect(!summary.text.contains("locked_out —"))
    #expect(summary.html.contains("<b>free_entitlement/refunded</b>"))
    #expect(summary.html.contains(HTMLText.escape(refunded.whatToDo)))
    // Inputs without rejected rows: no step for them.
    #expect(!summary.text.contains("  rejects — "))
  }

  @Test func rejectedRowsCarryTheirStepAndAHostedLink() throws {
    var facts = R.facts([])
    facts.inputs[0].counts = InputCounts(read: 10, accepted: 9, rejected: 1)
    facts.docsBase = "https://wiki.example.com/sr/"
    let summary = ReportSummary.build(facts)
    let step = try #require(NextStep.of(.rejectedRows))
    let inputs = Self.lines(summary.unwrappedText, after: "Inputs")
    #expect(inputs.contains("  rejects — https://wiki.example.com/sr/reports.md#rejects"), "\(inputs)")
    #expect(inputs.contains("    " + step.whatToDo))
    #expect(summary.html.contains("<a href=\"https://wiki.example.com/sr/reports.md#rejects\""))
  }
}
