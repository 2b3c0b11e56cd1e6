import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconWorkbooks

/// `reconciliation.xlsx` from a tiny hand-made result: sheets, money cells, continuation, idempotence.
@Suite(.serialized) struct ReconciliationWorkbookTests {
  static let date = CivilDate(year: 2026, month: 11, day: 29)

  static func content(revenueRows: Int = 3) throws -> ReconciliationWorkbook.Content {
    let usd = try #require(Currency.named("USD"))
    let jpy = try #require(Currency.named("JPY"))
    let kwd = try #require(Currency.named("KWD"))
    var findings = [
      Finding(
        reason: .unclaimed, store: .appStore, chainKey: "2000", userId: "", productId: "pro", currency: usd,
        amountMinor: 499, detail: "1 paid charge"),
      Finding(
        reason: .lockedOut, store: .play, chainKey: "GPA.1", userId: "u1", productId: "pro", currency: jpy,
        amountMinor: 700, detail: "paid through"),
      Finding(
        reason: .refunded, store: .appStore, chainKey: "3000", userId: "u2", productId: "pro", currency: kwd,
        amountMinor: 1500, detail: "refunded"),
      Finding(
        reason: .noStoreRecord, store: .play, chainKey: "x", userId: "u3", productId: "pro", currency: nil,
        amountMinor: nil, detail: "no purchase"),
      Finding(
        reason: .multipleUsers, store: .appStore, chainKey: "4000", userId: "u5", productId: "pro",
        currency: usd,
        amountMinor: 999, detail: "claimed by 2 users"),
    ]
    findings[2].since = "2026-11-20"
    findings.sort(by: Finding.reportOrder)
    var revenue: [RevenueRow] = []
    for i in 0..<revenueRows {
      var row = RevenueRow(
        day: CivilDate(daysSinceEpoch: date.daysSinceEpoch - Int64(revenueRows - i)), store: .appStore,
        productId: "pro",
        currency: i % 2 == 0 ? usd : jpy)
      row.charges = 2
      row.grossMinor = i % 2 == 0 ? 998 : 1400
      row.taxMinor = i % 2 == 0 ? 100 : 0
      row.refundsMinor = 0
      revenue.append(row)
    }
    var counts = CountsRow(store: .play, productId: "pro:monthly")
    counts.chainsPaidThrough = 3
    counts.entitlementsActive = 4
    var input = InputReport(
      role: "app.entitlements", path: "app/entitlements.csv", rejectsFile: "rejects/x.csv")
    input.counts = InputCounts(read: 3, accepted: 2, rejected: 1)
    var broken = InputReport(
      role: "play.voided", path: "exports/play/voided.jsonl.gz", rejectsFile: "rejects/y.csv")
    broken.error = "exports/play/voided.jsonl.gz: not a gzip file"
    let grant = GrantRow(
      source: "goodwill_grant", grantId: "g1", userId: "u9", productId: "pro",
      startsAt: Instant(ms: 1_764_000_000_000),
      endsAt: nil, active: true, reason: "support")
    let reject = Reject(
      file: "app/entitlements.csv", line: 3, reason: "timestamp without offset", raw: "e3,u3,\u{1}")
    return ReconciliationWorkbook.Content(
      date: date, asOf: date.next.startUTC, timeZone: "UTC", inputs: [input, broken], findings: findings,
      revenue: revenue, counts: [counts], grants: [grant], rejects: [reject])
  }

  /// The workbook's sheets in order: a sheet per finding kind between the tie-out and the revenue.
  static let sheets = [
    "Summary", "Tie-out", "Tie-out orders", "Orphaned charges", "Free entitlements", "Duplicate claims",
    "Uncredited purchases", "Double credits", "Credits not reversed", "Orphan credits", "Double billing",
    "Notifications unprocessed", "Notifications not applied", "Notifications missing", "Revenue", "Counts",
    "Grants", "Rejects",
  ]

  @Test(arguments: [false, true])
  func longDetailsWholeAndHostedDocsAsLinks(constantMemory: Bool) throws {
    let dir = try TempDir()
    let path = dir.path("reports/reconciliation.xlsx")
    var options = ReconciliationWorkbook.Options()
    options.constantMemoryAbove = constantMemory ? 0 : 1000
    var content = try Self.content()
    let long =
      String(repeating: "paid through 2026-12-01T00:00:00.000Z, entitlement expired; ", count: 4) + "end"
    let locked = try #require(content.findings.firstIndex { $0.reason == .lockedOut })
    content.findings[locked].detail = long
    content.docsBase = "https://wiki.example.com/storerecon/docs/"
    try ReconciliationWorkbook.write(content, to: path, options: options)
    let package = XLSXPackage(path)
    let strings = try package.sharedStrings()
    let orphaned = try package.sheet("Orphaned charges")
    let rows = try XLSXPackage.rows(orphaned, strings: strings)
    let row = try #require(rows.first { $0.count > 11 && $0[1] == "locked_out" }, "\(rows)")
    // detail (J) and what_to_do (K) whole, wrapped, in wide columns; then the docs link (L).
    #expect(row[9] == long && long.count > 200)
    #expect(rows[0].suffix(3) == ["detail", "what_to_do", "docs"])
    #expect(row[10] == NextStep.of(.lockedOut)?.whatToDo)
    #expect(row[11] == "https://wiki.example.com/storerecon/docs/rules.md#orphaned_chargelocked_out")
    #expect(orphaned.xml.contains("<col min=\"10\" max=\"10\" width=\"80."))
    #expect(orphaned.xml.contains("<col min=\"11\" max=\"11\" width=\"80."))
    #expect(try package.entry("xl/styles.xml").contains("wrapText=\"1\""))
    #expect(orphaned.xml.contains("<hyperlink ref=\"L2\""), "\(orphaned.xml.suffix(600))")
    // The address in the sheet's relationships, the anchor as the link's location (or in the address).
    let rels = try package.entryNames().filter { $0.hasPrefix("xl/worksheets/_rels/") }
    let targets = try rels.map { try package.entry($0) }.joined()
    #expect(targets.contains("https://wiki.example.com/storerecon/docs/rules.md"), "\(targets)")
    #expect(
      targets.contains("rules.md#orphaned_chargelocked_out")
        || orphaned.xml.contains("location=\"orphaned_chargelocked_out\""))
    // With the default (relative) base, the link is text, not a hyperlink.
    try ReconciliationWorkbook.write(try Self.content(), to: path, options: options)
    let plain = try XLSXPackage(path).sheet("Orphaned charges")
    #expect(!plain.xml.contains("<hyperlink "))
    let plainRows = try XLSXPackage.rows(plain, strings: try XLSXPackage(path).sharedStrings())
    #expect(plainRows[1][11] == "docs/rules.md#orphaned_chargelocked_out")
  }

  @Test(arguments: [false, true])
  func sheetsMoneyAndDates(constantMemory: Bool) throws {
    let dir = try TempDir()
    let path = dir.path("reports/reconciliation.xlsx")
    var options = ReconciliationWorkbook.Options()
    options.constantMemoryAbove = constantMemory ? 0 : 1000
    try ReconciliationWorkbook.write(try Self.content(), to: path, options: options)
    let package = XLSXPackage(path)
    #expect(try package.entryNames().contains("xl/sharedStrings.xml") == !constantMemory)
    #expect(try package.sheetNames() == Self.sheets)
    let styles = try package.styles()
    let strings = try package.sharedStrings()
    func text(_ sheet: XLSXPackage.Sheet, _ ref: String) -> String? {
      XLSXPackage.text(sheet.cells[ref], strings: strings)
    }
    func money(_ sheet: XLSXPackage.Sheet, _ ref: String, _ value: String, _ format: String) {
      let cell = sheet.cells[ref]
      #expect(cell?.type == nil, "\(ref) must be a number, not text")
      #expect(cell?.value == value, "\(ref)")
      #expect(styles.formatCode(style: cell?.style ?? -1) == format, "\(ref)")
    }

    // Table sheets: bold frozen header, autofilter over the rows, amount with its currency beside it.
    let orphaned = try package.sheet("Orphaned charges")
    #expect(orphaned.frozenRows == 1)
    #expect(orphaned.autofilter == "A1:L3")
    #expect(styles.isBold(style: orphaned.cells["A1"]?.style ?? -1))
    #expect(text(orphaned, "G1") == "currency" && text(orphaned, "H1") == "amount")
    // Report order: locked_out (JPY) before unclaimed (USD).
    #expect(text(orphaned, "B2") == "locked_out" && text(orphaned, "G2") == "JPY")
    money(orphaned, "H2", "700", "#,##0")
    #expect(text(orphaned, "G3") == "USD")
    money(orphaned, "H3", "4.99", "#,##0.00")

    let free = try package.sheet("Free entitlements")
    #expect(text(free, "B2") == "no_store_record" && free.cells["H2"] == nil && free.cells["G2"] == nil)
    #expect(text(free, "G3") == "KWD")
    money(free, "H3", "1.5", "#,##0.000")
    // `since` is a date: 2026-11-20 = 46346.
    #expect(
      free.cells["I3"]?.value == "46346"
        && styles.formatCode(style: free.cells["I3"]?.style ?? -1) == "yyyy-mm-dd")

    try Self.expectRevenueByMonth(package, strings: strings)

    let counts = try package.sheet("Counts")
    #expect(counts.cells["E2"]?.value == "1" && counts.autofilter == "A1:G2")
    let grants = try package.sheet("Grants")
    #expect(styles.formatCode(style: grants.cells["E2"]?.style ?? -1) == "yyyy-mm-dd hh:mm:ss")
    #expect(grants.cells["F2"] == nil)
    let rejects = try package.sheet("Rejects")
    #expect(text(rejects, "A2") == "app/entitlements.csv" && rejects.cells["B2"]?.value == "3")
    #expect(text(rejects, "D2") == "e3,u3,_x0001_")  // control characters escaped, not dropped

    // Summary: report date, T, inputs (with the error), per-reason stakes, the no-history note, revenue totals.
    let summary = try package.sheet("Summary")
    #expect(summary.frozenRows == 0)
    #expect(text(summary, "A2") == "report date" && summary.cells["B2"]?.value == "46355")
    #expect(text(summary, "A3") == "as of (UTC)" && summary.cells["B3"]?.value == "46356")
    let rows = try XLSXPackage.rows(summary, strings: strings)
    #expect(
      rows.contains([
        "play.voided", "exports/play/voided.jsonl.gz", "0", "0", "0",
        "exports/play/voided.jsonl.gz: not a gzip file",
      ]))
    #expect(rows.contains(["orphaned_charge", "unclaimed", "USD", "4.99", "1"]))
    #expect(rows.contains(["orphaned_charge", "locked_out", "JPY", "700", "1"]))
    #expect(rows.contains(["free_entitlement", "refunded", "KWD", "1.5", "1"]))
    #expect(rows.contains(["free_entitlement", "no_store_record", "", "", "1"]))
    #expect(rows.contains(["free_entitlement", "sandbox", "", "", "0"]))
    #expect(rows.contains(["total", "", "", "", "5"]))
    #expect(rows.contains(["no run history (--no-history)"]))
    #expect(rows.contains(["app_store", "JPY", "1400", "0", "0", "2", "0"]))
    #expect(rows.contains(["app_store", "USD", "19.96", "2", "0", "4", "0"]))
    // The Summary's money cells are numbers in their currency's format too.
    let stake = try #require(summary.cells.values.first { $0.value == "1.5" && $0.type == nil })
    #expect(styles.formatCode(style: stake.style) == "#,##0.000")
  }

  /// The Revenue sheet: per month, store, product and currency (the three November days summed), then
  /// the note that revenue.csv keeps the days.
  static func expectRevenueByMonth(_ package: XLSXPackage, strings: [String]) throws {
    let styles = try package.styles()
    let revenue = try package.sheet("Revenue")
    func text(_ ref: String) -> String? { XLSXPackage.text(revenue.cells[ref], strings: strings) }
    func money(_ ref: String, _ value: String, _ format: String) {
      #expect(revenue.cells[ref]?.type == nil && revenue.cells[ref]?.value == value, "\(ref)")
      #expect(styles.formatCode(style: revenue.cells[ref]?.style ?? -1) == format, "\(ref)")
    }
    #expect(revenue.frozenRows == 1 && revenue.autofilter == "A1:M3")
    #expect(text("A1") == "month" && text("A2") == "2026-11")
    money("E2", "1400", "#,##0")
    #expect(text("D3") == "USD")
    money("E3", "19.96", "#,##0.00")
    money("F3", "2", "#,##0.00")
    #expect(revenue.cells["H3"]?.value == "4")
    #expect(styles.formatCode(style: revenue.cells["H3"]?.style ?? -1) == "#,##0")
    #expect(text("A4") == ReconciliationWorkbook.revenueMonthsNote)
  }

  @Test func summaryShowsRunHistoryWhenGiven() throws {
    let dir = try TempDir()
    var content = try Self.content()
    content.history = WorkbookHistory(
      previousDate: CivilDate(year: 2026, month: 11, day: 28),
      rows: [.init(reason: .refunded, new: 1, stillOpen: 2, resolved: 3)])
    try ReconciliationWorkbook.write(content, to: dir.path("h.xlsx"))
    let package = XLSXPackage(dir.path("h.xlsx"))
    let rows = try XLSXPackage.rows(try package.sheet("Summary"), strings: try package.sharedStrings())
    #expect(!rows.contains(["no run history (--no-history)"]))
    #expect(rows.contains(["previous run", "46354"]))
    #expect(rows.contains(["kind", "reason", "new", "still open", "resolved"]))
    #expect(rows.contains(["free_entitlement", "refunded", "1", "2", "3"]))
    #expect(rows.contains(["orphaned_charge", "unclaimed", "0", "0", "0"]))
  }

  @Test func longTablesContinueOnNextSheets() throws {
    let dir = try TempDir()
    var options = ReconciliationWorkbook.Options()
    options.rowLimit = 10
    var content = try Self.content()
    // 25 months: the Revenue sheet has a row per month.
    content.revenue = (0..<25).map { i in
      var row = content.revenue[0]
      row.day = CivilDate(year: 2024 + i / 12, month: i % 12 + 1, day: 3)
      return row
    }
    try ReconciliationWorkbook.write(content, to: dir.path("long.xlsx"), options: options)
    let package = XLSXPackage(dir.path("long.xlsx"))
    let names = try package.sheetNames()
    #expect(names.filter { $0.hasPrefix("Revenue") } == ["Revenue", "Revenue (2)", "Revenue (3)"])
    #expect(names.firstIndex(of: "Revenue (3)").map { names[$0 + 1] } == "Counts")
    let strings = try package.sharedStrings()
    var months: [String] = []
    for name in ["Revenue", "Revenue (2)", "Revenue (3)"] {
      let sheet = try package.sheet(name)
      #expect(sheet.frozenRows == 1 && sheet.autofilter?.hasPrefix("A1:M") == true, "\(name)")
      for row in 2...sheet.rowCount {
        months.append(XLSXPackage.text(sheet.cells["A\(row)"], strings: strings) ?? "?")
      }
    }
    let expected = content.revenue.map { ReportTables.monthText($0.day) }
    #expect(months == expected + [ReconciliationWorkbook.revenueMonthsNote])
  }

  @Test(arguments: [false, true])
  func sameContentSameBytes(constantMemory: Bool) throws {
    let dir = try TempDir()
    var options = ReconciliationWorkbook.Options()
    options.constantMemoryAbove = constantMemory ? 0 : 1000
    try ReconciliationWorkbook.write(try Self.content(), to: dir.path("a.xlsx"), options: options)
    Thread.sleep(forTimeInterval: 1.1)
    try ReconciliationWorkbook.write(try Self.content(), to: dir.path("b.xlsx"), options: options)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: dir.path("a.xlsx")))
        == Data(contentsOf: URL(fileURLWithPath: dir.path("b.xlsx"))))
  }
}
