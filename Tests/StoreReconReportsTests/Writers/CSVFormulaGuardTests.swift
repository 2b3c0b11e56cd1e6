import Testing

@testable import StoreReconCore
@testable import StoreReconReports

/// Cells a spreadsheet would run as formulas start with `'` in every CSV report; plain numbers,
/// negative ones too, stay numbers.
@Suite struct CSVFormulaGuardTests {
  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  @Test(arguments: [
    (
      "=HYPERLINK(\"http://evil.example/x\",\"open\")",
      "\"'=HYPERLINK(\"\"http://evil.example/x\"\",\"\"open\"\")\""
    ),
    ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
    ("@SUM(1)", "'@SUM(1)"),
    ("-2+3", "'-2+3"),
    ("\tx", "'\tx"),
    ("\rx", "\"'\rx\""),
    ("-", "'-"),
    ("-1.", "'-1."),
    ("-.5", "'-.5"),
    ("--1", "'--1"),
    ("-1e3", "'-1e3"),
    ("+5", "'+5"),
    ("-499", "-499"),
    ("-12.50", "-12.50"),
    ("-0", "-0"),
    ("499", "499"),
    ("a=b", "a=b"),
    ("com.acme.pro", "com.acme.pro"),
    ("", ""),
  ])
  func cellsAreGuardedUnlessPlainNumbers(cell: String, written: String) {
    var csv = CSVWriter(header: ["h"])
    csv.row([cell])
    #expect(Self.text(csv.bytes) == "h\n\(written)\n")
    // The field-by-field writes and the fast block write the same bytes.
    var fields = CSVWriter(header: ["h"])
    fields.field(cell, first: true)
    fields.endRow()
    #expect(fields.bytes == csv.bytes)
    var block = CSVBlock(start: CSVWriter(header: ["h"]).bytes, expected: 0)
    block.field(cell)
    block.newline()
    #expect(block.finish() == csv.bytes)
    #expect(CSVBlock.quoted(Array(cell.utf8)) == Array(written.utf8))
  }

  @Test func integerFieldsAreNeverGuarded() {
    var csv = CSVWriter(header: ["a", "b"])
    csv.field("x", first: true)
    csv.field(Int64(-499))
    csv.endRow()
    #expect(Self.text(csv.bytes) == "a,b\nx,-499\n")
    var block = CSVBlock(start: [], expected: 0)
    block.integer(-499)
    #expect(Self.text(block.finish()) == "-499")
  }

  @Test func reportTablesGuardTextButNotAmounts() {
    let grant = GrantRow(
      source: "goodwill_grant", grantId: "@SUM(1)", userId: "=HYPERLINK(\"x\")", productId: "-2+3",
      startsAt: nil, endsAt: nil, active: true, reason: "+cmd|x")
    #expect(
      Self.text(ReportTables.grantsCSV([grant]))
        == "source,grant_id,user_id,product_id,starts_at,ends_at,active,reason\n"
        + "goodwill_grant,'@SUM(1),\"'=HYPERLINK(\"\"x\"\")\",'-2+3,,,yes,'+cmd|x\n")
    let reject = Reject(file: "app/entitlements.csv", line: 7, reason: "bad", raw: "=1+1,-499")
    #expect(
      Self.text(ReportTables.rejectsCSV([reject]))
        == "file,line,reason,raw\napp/entitlements.csv,7,bad,\"'=1+1,-499\"\n")
  }

  @Test func findingsGuardAProductIdButKeepANegativeAmount() throws {
    let finding = Finding(
      reason: .unclaimed, store: .play, chainKey: "=HYPERLINK(\"http://evil.example\")", userId: "@SUM(1)",
      productId: "-2+3", currency: try #require(Currency.named("USD")), amountMinor: -499, detail: "+cmd|x")
    let rows = Self.text(ReportTables.findingsCSV([finding])).split(separator: "\n").map(String.init)
    #expect(rows.count == 2)
    #expect(
      rows[1].hasSuffix(
        ",\"'=HYPERLINK(\"\"http://evil.example\"\")\",'@SUM(1),'-2+3,USD,-499,,'+cmd|x,,,"), "\(rows[1])")
  }

  @Test func revenueKeepsNegativeMoneyAsNumbers() throws {
    var row = RevenueRow(
      day: CivilDate(year: 2026, month: 11, day: 29), store: .appStore, productId: "@SUM(1)",
      currency: try #require(Currency.named("USD")))
    row.grossMinor = -499
    row.refundsMinor = -499
    row.proceedsMinor = -12
    let rows = Self.text(ReportTables.revenueCSV([row])).split(separator: "\n").map(String.init)
    #expect(rows[1].hasPrefix("2026-11-29,app_store,'@SUM(1),USD,0,-499,0,-499,0,-12,"), "\(rows[1])")
  }

  @Test func rejectedLinesAreShownAsABoundedExcerpt() {
    let short = String(repeating: "a", count: 512)
    #expect(ReportTables.rawExcerpt(short) == short)
    let long = String(repeating: "b", count: 511) + "é" + String(repeating: "c", count: 5000)
    // 511 bytes, then é would end at byte 513: cut before it.
    #expect(ReportTables.rawExcerpt(long) == String(repeating: "b", count: 511) + "…")
    let rejects = ReportTables.rejectsCSV([Reject(file: "f", line: 1, reason: "r", raw: long)])
    #expect(rejects.count < 600)
  }
}
