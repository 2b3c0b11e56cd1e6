import Testing

@testable import StoreReconCore
@testable import StoreReconReports

/// summary.html's layout: real tables at every width (cards only through the narrow-screen style
/// sheet), and the Inputs section in one line when every input was read in full.
struct SummaryLayoutTests {
  static let date = CivilDate(year: 2026, month: 11, day: 29)

  static func input(_ role: String, read: Int, rejected: Int = 0) -> InputReport {
    var input = InputReport(role: role, path: "exports/\(role).csv", rejectsFile: "rejects/\(role).csv")
    input.counts = InputCounts(read: read, accepted: read - rejected, rejected: rejected)
    return input
  }

  static func facts(_ inputs: [InputReport]) -> SummaryFacts {
    SummaryFacts(
      version: "9.9.9", date: date, asOf: date.next.startUTC, timeZone: "UTC", inputs: inputs, findings: [],
      revenue: [])
  }

  @Test func aWideTableIsARealTableThatOnlyTheNarrowScreenStyleTurnsIntoCards() {
    let table = SummaryTable(
      headers: ["a", "b", "c", "d", "e"], rightAligned: [4], rows: [["x_y", "2", "3", "4", "1,400 JPY"]])
    let html = table.html()
    #expect(html.contains("<table class=\"sr-cards\""))
    #expect(html.contains("<tr class=\"sr-head\"><th"))
    #expect(html.contains("<td data-label=\"a\""))
    #expect(html.contains("<td data-label=\"e\" style=\"border:1px solid #d0d7de;"))
    #expect(html.contains("1,400&nbsp;JPY"))
    // A short cell stays whole on a desktop: no break opportunity at its underscore.
    #expect(html.contains(">x_y</td>"))
    #expect(SummaryTable.breakable("free_entitlement") == "free_<wbr>entitlement")
    // No card markup on a desktop: no inline blocks, no table per row.
    #expect(!html.contains("inline-block"))
    #expect(html.components(separatedBy: "<table").count == 2)
    // A narrow table carries no class: it stays a table on a phone too, so its cells keep their
    // break opportunities (it must fit 390 px).
    #expect(
      SummaryTable(headers: ["kind"], rows: [["free_entitlement"]]).html().contains(
        ">free_<wbr>entitlement</td>"))
    let narrow = SummaryTable(headers: ["a", "b"], rows: [["1", "2"]]).html()
    #expect(!narrow.contains("class="))
    #expect(!narrow.contains("data-label"))
  }

  @Test func theStyleSheetOnlyHoldsTheNarrowScreenCards() {
    let html = ReportSummary.build(Self.facts([Self.input("play.sales", read: 10)])).html
    #expect(html.components(separatedBy: "<style>").count == 2)
    let head = html.components(separatedBy: "</head>")[0]
    #expect(head.contains("<style>\n" + SummaryTable.narrowScreenCSS + "\n</style>"))
    #expect(SummaryTable.narrowScreenCSS.hasPrefix("@media only screen and (max-width:600px){"))
    #expect(SummaryTable.narrowScreenCSS.hasSuffix("}"))
    // Every rule of the sheet is inside the media query: at desktop width nothing changes.
    #expect(SummaryTable.narrowScreenCSS.components(separatedBy: "@media").count == 2)
  }

  @Test func aSectionsOnePictureFloatsBesideItsTextOnADesktopAndIsFullWidthOnAPhone() {
    var facts = Self.facts([Self.input("play.sales", read: 10)])
    var verdict = ExperimentVerdict(experimentId: "paywall", verdict: "high leading")
    verdict.differences = [SVGChart.Estimate(label: "high", estimate: 120, low: 20, high: 230)]
    facts.experiments = [verdict]
    let html = ReportSummary.build(facts).html
    // The price tests' one picture floats right of the verdict on a desktop…
    #expect(html.contains("<div class=\"sr-float\" style=\"float:right;width:40%;"))
    // …and on a phone takes the width (at 40 % of 390 px its labels would be 6 px high).
    #expect(SummaryTable.narrowScreenCSS.contains("div.sr-float{float:none!important;width:auto!important;"))
  }

  @Test func shortCellsStayOnOneLineLongIdentifiersAreCutLongTextWraps() {
    #expect(SummaryTable.fit("orphaned_charge") == "white-space:nowrap;")
    let token = String(repeating: "k", count: 80)
    #expect(SummaryTable.fit(token).contains("text-overflow:ellipsis;"))
    #expect(SummaryTable.fit("0.00 BRL, 0.00 CHF, 0.00 EUR, 0.00 GBP, 0.00 JPY") == "")
    // The cut identifier is still whole in the page; in a wide table without a break opportunity (one
    // line).
    let html = SummaryTable(headers: ["chain key"], rows: [[token]]).html()
    #expect(html.contains(token))
    let id = "abc_def_" + token
    let wide = SummaryTable(headers: ["chain key", "b", "c", "d", "e"], rows: [[id, "", "", "", ""]])
    #expect(wide.html().contains(">\(id)</td>"))
  }

  @Test func everyInputReadInFullIsOneLine() {
    let inputs = [
      Self.input("app_store.transactions", read: 100_000), Self.input("play.sales", read: 23_456),
      Self.input("app.entitlements", read: 0),
    ]
    let summary = ReportSummary.build(Self.facts(inputs))
    let section = summary.inputsSection
    #expect(
      section.blocks.first
        == .paragraph("3 inputs, all read in full: 123,456 rows, 0 rejected (each file in manifest.json)."))
    #expect(!section.blocks.contains { if case .table = $0 { true } else { false } })
    #expect(summary.text.contains("Inputs\n------\n3 inputs, all read in full: 123,456 rows, 0 rejected"))
  }

  @Test func onlyInputsWithRejectsErrorsOrNotesAreListed() throws {
    var broken = Self.input("play.voided", read: 0)
    broken.error = "not a gzip file"
    var unpriced = Self.input("app_store.transactions", read: 50)
    unpriced.unpriced = 2
    let inputs = [
      Self.input("play.sales", read: 1_000, rejected: 7), Self.input("app.entitlements", read: 40), broken,
      unpriced,
    ]
    let section = ReportSummary.build(Self.facts(inputs)).inputsSection
    #expect(
      section.blocks.first
        == .paragraph(
          "4 inputs: 1,090 rows read, 7 rejected; 3 have rejects, an error or a note (below), the others were read in full (each file in manifest.json)."
        ))
    // The table is folded in the HTML under a line naming how many inputs it lists.
    let table = try #require(
      section.blocks.compactMap {
        if case .folded("Inputs with rejected rows, an error or a note (3 inputs)", let t) = $0 {
          t
        } else {
          nil
        }
      }.first)
    #expect(table.rows.map(\.[0]) == ["play.sales", "play.voided", "app_store.transactions"])
    #expect(section.blocks.contains(.paragraph("FAILED exports/play.voided.csv: not a gzip file")))
  }
}
