import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// A `report_less` / `report_more` cell's detail names the feed transactions behind it
/// (docs/tieout.md#report_less): the 20 smallest ids, then how many more; or that the feed has none.
@Suite struct TieOutFeedIdsTests {
  typealias T = TieOutTests

  @Test func aReportLessCellListsItsFeedTransactions() {
    let ledger = Fx.ledger([
      T.apple("2000000003", at: "2026-11-11T12:00:00Z"),
      T.apple("2000000001", at: "2026-11-11T13:00:00Z"),
      T.apple("2000000002", at: "2026-11-11T14:00:00Z"),
      // Another day's cell: not listed under the 11th.
      T.apple("2000000009", at: "2026-11-10T14:00:00Z"),
    ])
    let reports = T.rows([T.sales("2026-11-11", units: 1), T.sales("2026-11-10", units: 1)])
    let tieOut = TieOut.build(
      ledger: ledger, reports: reports, settings: Pacific.settings(["2026-11-10", "2026-11-11"]))
    let cell = tieOut.cells.first { $0.day == CivilDate(year: 2026, month: 11, day: 11) }
    #expect(cell?.status == .reportLess)
    #expect(
      cell?.detail.contains("; feed transactions: 2000000001, 2000000002, 2000000003") == true,
      "\(cell?.detail ?? "")")
    #expect(cell?.detail.contains("2000000009") == false)
    #expect(cell?.detail.contains("more") == false)
    // The matching cell lists nothing.
    #expect(tieOut.cells.first { $0.status == .match }?.detail == "")
  }

  @Test func moreThanTwentyAreCutWithACount() {
    let ids = (0..<25).map { String(3_000_000_000 + $0) }
    let ledger = Fx.ledger(ids.reversed().map { T.apple($0, at: "2026-11-11T12:00:00Z") })
    let tieOut = TieOut.build(
      ledger: ledger, reports: T.rows([T.sales("2026-11-11", units: 1)]),
      settings: Pacific.settings(["2026-11-11"]))
    let detail = tieOut.cells.first?.detail ?? ""
    #expect(detail.contains("feed transactions: " + ids.prefix(20).joined(separator: ", ") + " … and 5 more"))
    #expect(!detail.contains(ids[20]))
  }

  @Test func aReportMoreCellTheFeedLacksSaysSo() {
    let ledger = Fx.ledger([T.apple("1", at: "2026-11-10T12:00:00Z")])
    let tieOut = TieOut.build(
      ledger: ledger, reports: T.rows([T.sales("2026-11-10", units: 1), T.sales("2026-11-12", units: 1)]),
      settings: Pacific.settings(["2026-11-10", "2026-11-12"]))
    let empty = tieOut.cells.first { $0.day == CivilDate(year: 2026, month: 11, day: 12) }
    #expect(empty?.status == .reportMore)
    #expect(
      empty?.detail.contains("the feed has no transaction in this cell") == true, "\(empty?.detail ?? "")")
  }

  @Test func aRefundOnItsPurchaseDayIsListedOnce() {
    let ledger = Fx.ledger([
      T.apple("4000000001", at: "2026-11-11T12:00:00Z", revokedAt: "2026-11-11T18:00:00Z"),
      T.apple("4000000002", at: "2026-11-11T13:00:00Z"),
      T.apple("4000000003", at: "2026-11-11T14:00:00Z"),
    ])
    let tieOut = TieOut.build(
      ledger: ledger, reports: T.rows([T.sales("2026-11-11", units: 1)]),
      settings: Pacific.settings(["2026-11-11"]))
    let detail = tieOut.cells.first?.detail ?? ""
    #expect(tieOut.cells.first?.status == .reportLess, "\(detail)")
    #expect(detail.contains("feed transactions: 4000000001, 4000000002, 4000000003"), "\(detail)")
    #expect(!detail.contains("more"))
  }

  @Test func partsMergeToTheSmallestIdsAndTheWholeCount() {
    var a = TieOutIds()
    var b = TieOutIds()
    for i in stride(from: 0, to: 30, by: 2) { a.add("id\(100 + i)") }
    for i in stride(from: 1, to: 30, by: 2) { b.add("id\(100 + i)") }
    var whole = TieOutIds()
    for i in 0..<30 { whole.add("id\(100 + i)") }
    a.merge(b)
    #expect(a == whole)
    #expect(a.count == 30 && a.shown.count == TieOutIds.limit && a.shown.first == "id100")
    #expect(TieOutIds(shown: a.shown, count: a.count) == a)
    #expect(a.text("feed orders").hasSuffix("id119 … and 10 more"))
  }
}

/// The Play side: a cell's detail lists its orders, a refunded order once.
@Suite struct PlayTieOutFeedIdsTests {
  typealias P = PlayTieOutTests

  @Test func aReportLessPlayCellListsItsOrdersOnce() {
    var refund = Fx.playRefund("GPA.1111-1111-1111-11111", at: Fx.at("2026-10-20T10:00:00Z"), amount: 595)
    refund.taxMinor = 95
    refund.country = CountryCode.pack("DE")
    let ledger = Fx.ledger([
      P.charge("GPA.1111-1111-1111-11111"), refund,
      P.charge("GPA.3333-3333-3333-33333"),
      P.charge("GPA.2222-2222-2222-22222"),
    ])
    var rows = StoreReportRows()
    rows.playEarnings = [P.earnings("GPA.3333-3333-3333-33333", .charge, 500, line: 2)]
    let tieOut = TieOut.build(ledger: ledger, reports: rows, settings: TieOutSettings())
    let cell = tieOut.cells.first
    #expect(cell?.status == .reportLess)
    // Three orders (the refunded one listed once), so nothing "more".
    #expect(
      cell?.detail.contains(
        "feed orders: GPA.1111-1111-1111-11111, GPA.2222-2222-2222-22222, GPA.3333-3333-3333-33333") == true,
      "\(cell?.detail ?? "")")
    #expect(cell?.detail.contains("more") == false, "\(cell?.detail ?? "")")
  }
}
