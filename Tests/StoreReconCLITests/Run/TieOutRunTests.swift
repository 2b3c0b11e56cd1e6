import Foundation
import Testing
import StoreReconTestSupport

/// The stores' own reports in a whole run, as a user runs it: tieout.csv, tieout_orders.csv, the
/// counts' daily check, and a report under the wrong key.
@Suite(.serialized) struct TieOutRunTests {
  static let salesHeader = [
    "Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier",
    "Units",
    "Developer Proceeds", "Begin Date", "End Date", "Customer Currency", "Country Code",
    "Currency of Proceeds",
    "Apple Identifier", "Customer Price", "Promo Code", "Parent Identifier", "Subscription", "Period",
    "Category", "CMB", "Device", "Supported Platforms", "Proceeds Reason", "Preserved Pricing", "Client",
    "Order Type",
  ].joined(separator: "\t")

  /// A sales row: SKU, units, proceeds, day (MM/DD/YYYY), price.
  static func sales(_ sku: String, _ units: String, _ proceeds: String, _ day: String, _ price: String)
    -> String
  {
    [
      "APPLE", "US", sku, "Acme", "Pro", "", "IAY", units, proceeds, day, day, "USD", "US", "USD", "1", price,
      " ",
      "acme.app", "Renewal", "1 Month", "Apps", "", "iPhone", "iOS", "", "", "", "",
    ].joined(separator: "\t")
  }

  static func world() throws -> URL {
    let dir = try Binary.temporaryDirectory()
    let fm = FileManager.default
    for sub in ["exports/apple/reports", "app"] {
      try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
    }
    func write(_ path: String, _ text: String) throws {
      try Data(text.utf8).write(to: dir.appendingPathComponent(path))
    }
    // 2026-11-20 16:00 UTC and 2026-11-21 07:30 UTC (still the 20th in Pacific Time, PST).
    let a = Int64(1_795_190_400_000)
    let b = a + 15 * 3_600_000 + 1_800_000
    let line = { (id: String, at: Int64) in
      "{\"transactionId\":\"\(id)\",\"originalTransactionId\":\"\(id)\",\"productId\":\"com.acme.pro\","
        + "\"purchaseDate\":\(at),\"expiresDate\":\(at + 30 * 86_400_000),\"price\":4990,\"currency\":\"USD\","
        + "\"environment\":\"Production\",\"storefront\":\"USA\",\"type\":\"Auto-Renewable Subscription\"}"
    }
    try write("exports/apple/transactions.jsonl", line("21", a) + "\n" + line("22", b) + "\n")
    // The store reports three units on the 20th (one the feed does not have), one on the 21st.
    try write(
      "exports/apple/reports/S_D_85000000_20261120.txt",
      [Self.salesHeader, Self.sales("com.acme.pro", "3", "3.49", "11/20/2026", "4.99")].joined(
        separator: "\n")
        + "\n")
    try write(
      "exports/apple/reports/S_D_85000000_20261121.txt",
      [Self.salesHeader, Self.sales("com.acme.pro", "1", "3.49", "11/21/2026", ".99")].joined(separator: "\n")
        + "\n")
    try write(
      "app/entitlements.csv",
      """
      entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at
      e1,u1,com.acme.pro,app_store,21,active,2026-11-20T16:00:00Z,2026-12-20T16:00:00Z,
      e2,u2,com.acme.pro,app_store,22,active,2026-11-21T07:30:00Z,2026-12-21T07:30:00Z,

      """)
    try write(
      "storerecon.json",
      """
      {"appStore": {"transactions": ["exports/apple/*.jsonl"], "salesReports": ["exports/apple/reports/S_D_*.txt"],
                    "signatures": "verify"},
       "app": {"entitlements": "app/entitlements.csv"}}
      """)
    return dir
  }

  @Test func theRunTiesTheFeedOutToTheSalesReports() throws {
    let dir = try Self.world()
    let out = dir.appendingPathComponent("out")
    let run = try Binary.run([
      "run", "--config", dir.appendingPathComponent("storerecon.json").path, "--date", "2026-11-21", "--out",
      out.path, "--quiet",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let tieOut = try String(contentsOf: out.appendingPathComponent("tieout.csv"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let header = [
      "store,source,day,product_id,country,currency,report_units,ledger_units,units_diff,",
      "report_gross_minor,ledger_gross_minor,gross_diff_minor,report_proceeds_minor,ledger_proceeds_minor,",
      "status,detail,proceeds_currency,report_free_units,ledger_free_units,what_to_do,docs,",
      "case_key,state,first_seen,age_days",
    ].joined()
    #expect(tieOut.first == header)
    // The 20th: both charges (07:30 UTC on the 21st is 23:30 PST on the 20th), one more in the report.
    // The 21st ends at 08:00 UTC on the 22nd, after T: not tied out.
    #expect(tieOut.count == 2)
    #expect(
      tieOut[1].hasPrefix(
        "app_store,apple_sales,2026-11-20,com.acme.pro,US,USD,3,2,1,1497,998,499,1047,698,report_more,"))
    let counts = try String(contentsOf: out.appendingPathComponent("counts.csv"), encoding: .utf8)
    #expect(
      counts.contains("app_store,com.acme.pro,2,2,0,3,the store's report of 2026-11-20 counts 3 paid units"))
    let revenue = try String(contentsOf: out.appendingPathComponent("revenue.csv"), encoding: .utf8)
    // 3.49 a unit, as the Sales report states: reported proceeds.
    #expect(revenue.contains("2026-11-20,app_store,com.acme.pro,USD,1,499,0,0,0,349,reported"))
    #expect(revenue.contains("2026-11-21,app_store,com.acme.pro,USD,1,499,0,0,0,349,reported"))
  }

  @Test func aReportUnderTheWrongKeyStopsTheRunBeforeAnythingIsRead() throws {
    let dir = try Self.world()
    try Data(
      """
      {"appStore": {"transactions": ["exports/apple/*.jsonl", "exports/apple/reports/S_D_*.txt"],
                    "signatures": "verify"},
       "app": {"entitlements": "app/entitlements.csv"}}
      """.utf8
    ).write(to: dir.appendingPathComponent("storerecon.json"))
    let out = dir.appendingPathComponent("out")
    let run = try Binary.run([
      "run", "--config", dir.appendingPathComponent("storerecon.json").path, "--date", "2026-11-21", "--out",
      out.path, "--quiet",
    ])
    #expect(run.status == 65)
    #expect(
      run.stderr.contains(
        "exports/apple/reports/S_D_85000000_20261120.txt: this file looks like an Apple Summary Sales report, "
          + "not App Store transactions — list it under appStore.salesReports"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.path))
  }

  @Test func aFileMatchedTwiceOrThroughALinkIsReadOnce() throws {
    let dir = try Self.world()
    try FileManager.default.createSymbolicLink(
      atPath: dir.appendingPathComponent("exports/apple/link.jsonl").path,
      withDestinationPath: dir.appendingPathComponent("exports/apple/transactions.jsonl").path)
    try Data(
      """
      {"appStore": {"transactions": ["exports/apple/*.jsonl", "exports/apple/transactions.jsonl"],
                    "salesReports": ["exports/apple/reports/S_D_*.txt"], "signatures": "verify"},
       "app": {"entitlements": "app/entitlements.csv"}}
      """.utf8
    ).write(to: dir.appendingPathComponent("storerecon.json"))
    let out = dir.appendingPathComponent("out")
    let run = try Binary.run([
      "run", "--config", dir.appendingPathComponent("storerecon.json").path, "--date", "2026-11-21", "--out",
      out.path,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stderr.contains(
        "note: exports/apple/transactions.jsonl is the same file as exports/apple/link.jsonl: read once"))
    let manifest =
      try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json")))
      as? [String: Any]
    let inputs = manifest?["inputs"] as? [[String: Any]] ?? []
    #expect(inputs.filter { $0["role"] as? String == "app_store.transactions" }.count == 1)
    #expect(
      manifest?["inputsMatchedAgain"] as? [String] == [
        "exports/apple/transactions.jsonl (read as exports/apple/link.jsonl)",
        "exports/apple/transactions.jsonl (read as exports/apple/link.jsonl)",
      ])
    // The feed still holds two charges on the 20th, not four.
    let tieOut = try String(contentsOf: out.appendingPathComponent("tieout.csv"), encoding: .utf8)
    #expect(tieOut.contains("app_store,apple_sales,2026-11-20,com.acme.pro,US,USD,3,2,1,"))
  }
}
