import Foundation
import Testing
import StoreReconTestSupport

/// Payouts in a whole run, as a user runs it: an Apple financial summary and the detail Financial
/// reports of its month give payouts.csv, the Payouts sheet and the summary's line.
@Suite(.serialized) struct PayoutRunTests {
  static let detailHeader = [
    "Start Date", "End Date", "UPC", "ISRC/ISBN", "Vendor Identifier", "Quantity", "Partner Share",
    "Extended Partner Share", "Partner Share Currency", "Sales or Return", "Apple Identifier",
    "Artist/Show/Developer/Author", "Title", "Label/Studio/Network/Developer/Publisher", "Grid",
    "Product Type Identifier", "ISAN/Other Identifier", "Country Of Sale", "Pre-order Flag", "Promo Code",
    "Customer Price", "Customer Currency",
  ].joined(separator: "\t")

  static func detail(_ quantity: String, _ share: String, _ extended: String, _ currency: String) -> String {
    [
      "09/27/2026", "10/31/2026", "", "com.acme.pro", "com.acme.pro", quantity, share, extended, currency,
      "S",
      "1", "", "Acme Pro", "", "", "IAY", "", currency == "JPY" ? "JP" : "US", "", "",
      currency == "JPY" ? "600" : "4.99", currency,
    ].joined(separator: "\t")
  }

  /// A world of one App Store charge, the October 2026 detail reports (USD 25.20, JPY 179) and the
  /// month's summary paid in EUR; `paid` is the payment line's amount (23.45 adds up).
  static func world(paid: String) throws -> URL {
    let dir = try Binary.temporaryDirectory()
    let fm = FileManager.default
    for sub in ["exports/apple/financial", "app"] {
      try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
    }
    func write(_ path: String, _ text: String) throws {
      try Data(text.utf8).write(to: dir.appendingPathComponent(path))
    }
    let at = Int64(1_795_190_400_000)
    try write(
      "exports/apple/transactions.jsonl",
      "{\"transactionId\":\"21\",\"originalTransactionId\":\"21\",\"productId\":\"com.acme.pro\","
        + "\"purchaseDate\":\(at),\"expiresDate\":\(at + 30 * 86_400_000),\"price\":4990,\"currency\":\"USD\","
        + "\"environment\":\"Production\",\"storefront\":\"USA\",\"type\":\"Auto-Renewable Subscription\"}\n")
    try write(
      "exports/apple/financial/85000000_1026_US.txt",
      [
        Self.detailHeader, Self.detail("9", "2.80", "25.20", "USD"), "Total_Rows\t1", "Total_Amount\t25.20",
        "Total_Units\t9",
      ].joined(separator: "\n") + "\n")
    try write(
      "exports/apple/financial/85000000_1026_JP.txt",
      [
        Self.detailHeader, Self.detail("1", "179", "179", "JPY"), "Total_Rows\t1", "Total_Amount\t179",
        "Total_Units\t1",
      ].joined(separator: "\n") + "\n")
    try write(
      "exports/apple/financial/financial_report.csv",
      [
        "\"iTunes Connect - Payments and Financial Reports\t(October, 2026)\",,,,,,,,,,,,", ",,,,,,,,,,,,",
        "Region (Currency),Units Sold,Earned,Pre-Tax Subtotal,Input Tax,Adjustments,Withholding Tax,Total Owed,Exchange Rate,Proceeds,Bank Account Currency,",
        "Americas (USD),\"9\",\"25.20\",\"25.20\",\"0\",\"0\",\"0\",\"25.20\",\"0.88452\",\"22.29\",\"EUR\",",
        "\"Japan (JPY)\",\"1\",\"179\",\"179\",\"0\",\"0\",\"-37\",\"142\",\"0.00817\",\"1.16\",\"EUR\",",
        ",,,,,,,,,,,,", ",,,,,,,,,,\"\(paid)\" EUR,,", ",,,,,,,,,,Paid to EXAMPLE BANK -****0042,,",
      ].joined(separator: "\n") + "\n")
    try write(
      "app/entitlements.csv",
      """
      entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at
      e1,u1,com.acme.pro,app_store,21,active,2026-11-20T16:00:00Z,2026-12-20T16:00:00Z,

      """)
    try write(
      "storerecon.json",
      """
      {"appStore": {"transactions": ["exports/apple/*.jsonl"],
                    "financialReports": ["exports/apple/financial/*.txt"],
                    "financialSummaries": ["exports/apple/financial/financial_report.csv"],
                    "signatures": "verify"},
       "app": {"entitlements": "app/entitlements.csv"}}
      """)
    return dir
  }

  static func run(_ dir: URL) throws -> (URL, Binary.Output) {
    let out = dir.appendingPathComponent("out")
    let run = try Binary.run([
      "run", "--config", dir.appendingPathComponent("storerecon.json").path, "--date", "2026-11-21", "--out",
      out.path, "--quiet",
    ])
    return (out, run)
  }

  @Test func aPaymentThatAddsUpIsExplainedRegionByRegion() throws {
    let (out, run) = try Self.run(try Self.world(paid: "23.45"))
    #expect(run.status == 0, "\(run.stderr)")
    let lines = try String(contentsOf: out.appendingPathComponent("payouts.csv"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    #expect(
      lines[0]
        == "store,payout_id,period,kind,region,currency,gross_minor,fees_minor,refunds_minor,fee_refunds_minor,taxes_minor,adjustments_minor,carried_minor,net_minor,exchange_rate,payout_currency,payout_minor,fx_table_rate,fx_table_payout_minor,fx_difference_minor,source_minor,difference_minor,status,detail,source,rows"
    )
    #expect(
      lines[1].hasPrefix("app_store,2026-10 EUR,2026-10,payout,,EUR,,,,,,,,2345,,EUR,2345,,,,2345,0,adds_up,")
    )
    #expect(
      lines[2].hasPrefix(
        "app_store,2026-10 EUR,2026-10,region,Americas,USD,2520,,,,0,0,0,2520,0.88452,EUR,2229,"))
    #expect(lines[2].contains(",2520,0,adds_up,"))
    #expect(
      lines[3].hasPrefix("app_store,2026-10 EUR,2026-10,region,Japan,JPY,179,,,,-37,0,0,142,0.00817,EUR,116,")
    )
    let summary = try String(contentsOf: out.appendingPathComponent("summary.txt"), encoding: .utf8)
      .split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    #expect(summary.contains("Last payout per store (payouts.csv): app_store 2026-10 23.45 EUR."))
  }

  @Test func aPaymentOffItsRegionsIsOneLine() throws {
    let (out, run) = try Self.run(try Self.world(paid: "23.40"))
    #expect(run.status == 0, "\(run.stderr)")
    let lines = try String(contentsOf: out.appendingPathComponent("payouts.csv"), encoding: .utf8)
      .split(separator: "\n").dropFirst()
    let differing = lines.filter { !$0.contains(",adds_up,") }
    #expect(differing.count == 1)
    #expect(differing.first?.contains(",2345,-5,payment_differs,") == true)
    let summary = try String(contentsOf: out.appendingPathComponent("summary.txt"), encoding: .utf8)
      .split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    #expect(summary.contains("app_store 2026-10 23.40 EUR (1 line does not add up)"))
  }
}
