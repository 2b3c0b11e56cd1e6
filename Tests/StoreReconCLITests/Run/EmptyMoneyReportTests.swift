import Foundation
import Testing
import StoreReconReports
import StoreReconTestSupport

/// Issue 32: a store money report that shrinks to nothing is named and makes the run INCOMPLETE — a
/// Summary Sales day or an earnings month with a header and no rows, a Financial report cut before its
/// `Total_` trailer — and no period is tied out or settled against it
/// (docs/tieout.md#a-report-that-shrinks-to-nothing).
@Suite(.serialized) struct EmptyMoneyReportTests {
  static func firstLine(_ world: RunWorld) throws -> String {
    TextWrap.firstItem(of: try world.file("summary.txt"))
  }

  /// Keeps only the first (header) line of the world's file at `path`.
  static func cutToHeader(_ world: RunWorld, _ path: String) throws {
    let url = world.directory.appendingPathComponent(path)
    let text = try String(contentsOf: url, encoding: .utf8)
    let header = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
    try Data((header + "\n").utf8).write(to: url)
  }

  /// The tie-out rows of `day` (`2026-11-20`, or a month `2026-10`) for `store`.
  static func tieOutRows(_ world: RunWorld, store: String, day: String) throws -> Int {
    try world.file("tieout.csv").split(separator: "\n").filter {
      $0.hasPrefix("\(store),") && $0.contains(",\(day),")
    }
    .count
  }

  @Test func aHeaderOnlySummarySalesDayIsNamedAndTheRunIncomplete() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let day = MoneyReportCopyTests.salesDay
    #expect(try world.run(["--require-complete"]).status == 0)
    #expect(try Self.tieOutRows(world, store: "app_store", day: "2026-11-20") > 0)
    try Self.cutToHeader(world, day)
    let run = try world.run(["--require-complete"])
    #expect(run.status == 4, "\(run.stderr)")
    let line = try Self.firstLine(world)
    #expect(line.hasPrefix("INCOMPLETE — "), "\(line)")
    #expect(
      line.contains(
        "app_store.sales_reports \(day): header only, no rows: the day 2026-11-20 is not tied out; "
          + "download the report again"), "\(line)")
    #expect(try Self.tieOutRows(world, store: "app_store", day: "2026-11-20") == 0)
  }

  @Test func aHeaderOnlyEarningsMonthIsNamedAndTheRunIncomplete() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let month = "exports/play/earnings/PlayApps_202610.csv"
    #expect(try world.run(["--require-complete"]).status == 0)
    #expect(try Self.tieOutRows(world, store: "play", day: "2026-10") > 0)
    try Self.cutToHeader(world, month)
    let run = try world.run(["--require-complete"])
    #expect(run.status == 4, "\(run.stderr)")
    let line = try Self.firstLine(world)
    #expect(
      line.contains("play.earnings \(month): header only, no rows: the month 2026-10 is not tied out"),
      "\(line)")
    #expect(try Self.tieOutRows(world, store: "play", day: "2026-10") == 0)
    #expect(!(try world.file("tieout_orders.csv").contains(",2026-10,")))
  }

  static let financialHeader = [
    "Start Date", "End Date", "UPC", "ISRC/ISBN", "Vendor Identifier", "Quantity", "Partner Share",
    "Extended Partner Share", "Partner Share Currency", "Sales or Return", "Apple Identifier",
    "Artist/Show/Developer/Author", "Title", "Label/Studio/Network/Developer/Publisher", "Grid",
    "Product Type Identifier", "ISAN/Other Identifier", "Country Of Sale", "Pre-order Flag", "Promo Code",
    "Customer Price", "Customer Currency",
  ].joined(separator: "\t")

  /// A Financial report detail row of `quantity` units at 6.99 USD partner share (`extended` in all).
  static func financialRow(_ quantity: Int, _ extended: String) -> String {
    [
      "11/01/2026", "11/28/2026", "", "com.acme.pro.monthly", "", "\(quantity)", "6.99", extended, "USD", "S",
      "1612345000", "", "Pro", "", "", "IAY", "",
      "US", "", "", "9.99", "USD",
    ].joined(separator: "\t")
  }

  @Test func aFinancialReportCutBeforeItsTrailerIsNamedAndNotSettledFrom() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let path = "exports/apple/financial/financial_85012345_1126.txt"
    let url = world.directory.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let rows = [Self.financialHeader, Self.financialRow(3, "20.97"), Self.financialRow(2, "13.98")]
    let trailer = ["Total_Rows\t2", "Total_Amount\t34.95", "Total_Units\t5"]
    try Data((rows + trailer).joined(separator: "\n").utf8 + Data("\n".utf8)).write(to: url)
    var root = try JSONSerialization.jsonObject(with: Data(contentsOf: world.config)) as? [String: Any] ?? [:]
    var appStore = root["appStore"] as? [String: Any] ?? [:]
    appStore["financialReports"] = [path]
    root["appStore"] = appStore
    try JSONSerialization.data(withJSONObject: root).write(to: world.config)

    let whole = try world.run(["--require-complete"])
    #expect(whole.status == 0, "\(whole.stderr)")
    #expect(try world.file("summary.txt").contains("34.95"))

    // Cut after its rows, before the trailer: named, INCOMPLETE, its rows settle nothing.
    try Data(rows.joined(separator: "\n").utf8 + Data("\n".utf8)).write(to: url)
    let cut = try world.run(["--require-complete"])
    #expect(cut.status == 4, "\(cut.stderr)")
    let line = try Self.firstLine(world)
    #expect(line.hasPrefix("INCOMPLETE — "), "\(line)")
    #expect(
      line.contains(
        "app_store.financial_reports \(path): ends before its Total_Rows trailer, so it may be cut short: "
          + "its 2 rows are left out of settled proceeds and payouts"), "\(line)")
    #expect(!(try world.file("summary.txt").contains("34.95")))
  }
}
