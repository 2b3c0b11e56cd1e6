import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconReports

/// A run with a price experiment over a tiny hand-made world, as a user runs it: the FX table is an
/// input like any other (bad rows rejected, listed in the manifest) and a missing rate is reported.
@Suite(.serialized) struct ExperimentRunTests {
  static func world() throws -> URL {
    let dir = try Binary.temporaryDirectory()
    for sub in ["exports/apple", "app", "fx"] {
      try FileManager.default.createDirectory(
        at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
    }
    func write(_ path: String, _ text: String) throws {
      try Data(text.utf8).write(to: dir.appendingPathComponent(path))
    }
    func apple(_ id: String, _ original: String, _ at: String, _ price: Int, _ currency: String) -> String {
      let ms = (Instant.parseISO8601(at) ?? .distantPast).ms
      return
        #"{"transactionId":"\#(id)","originalTransactionId":"\#(original)","productId":"com.acme.pro.monthly","#
        + #""purchaseDate":\#(ms),"expiresDate":\#(ms + 30 * 86_400_000),"price":\#(price),"currency":"\#(currency)","#
        + #""environment":"Production","type":"Auto-Renewable Subscription"}"#
    }
    try write(
      "exports/apple/transactions.jsonl",
      [
        apple("100", "100", "2026-09-10T10:00:00Z", 4990, "USD"),
        apple("101", "100", "2026-10-10T10:00:00Z", 4990, "USD"),
        apple("200", "200", "2026-09-12T10:00:00Z", 5990, "GBP"),
        apple("300", "300", "2026-09-15T10:00:00Z", 6990, "EUR"),
      ].joined(separator: "\n") + "\n")
    try write(
      "app/entitlements.csv",
      "entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at\n")
    try write(
      "app/credentials.csv",
      "store,store_key,user_id,linked_store_key,order_id,claimed_at\n"
        + "app_store,100,u1,,,\napp_store,200,u2,,,\napp_store,300,u3,,,\n")
    try write(
      "app/assignments.csv",
      "user_id,experiment_id,arm_id,assigned_at\n"
        + "u1,p,control,2026-09-05T00:00:00Z\nu2,p,high,2026-09-06T00:00:00Z\n"
        + "u3,p,high,2026-09-07T00:00:00Z\nu4,p,control,2026-09-08T00:00:00Z\n")
    try write("fx/rates.csv", "date,currency,rate_to_reporting\n2026-09-01,GBP,1.2710\n2026-09-01,EUR,1,08\n")
    try write(
      "storerecon.json",
      #"""
      {"appStore": {"transactions": ["exports/apple/*.jsonl"], "signatures": "verify"},
       "app": {"entitlements": "app/entitlements.csv", "credentials": "app/credentials.csv",
               "assignments": "app/assignments.csv"},
       "experiments": [{"id": "p", "enrollStart": "2026-09-01", "enrollEnd": "2026-10-15",
         "arms": [{"id": "control", "weight": 1, "products": ["com.acme.pro.monthly"]},
                  {"id": "high", "weight": 1, "products": ["com.acme.pro.monthly.hi"]}]}],
       "reportingCurrency": "USD", "fxRates": "fx/rates.csv"}
      """#)
    return dir
  }

  @Test func runWritesTheReadoutAndReportsBadRatesAndGaps() throws {
    let dir = try Self.world()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("out")
    let config = dir.appendingPathComponent("storerecon.json").path
    let run = try Binary.run(["run", "--config", config, "--date", "2026-11-29", "--out", out.path])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stderr.contains("warning: experiment p: 1 credited charge(s) have no FX rate (EUR from 2026-09-15)")
    )
    #expect(run.stdout.contains("experiment p (enrolment 2026-09-01 to 2026-10-15):"))
    #expect(run.stdout.contains("  control: 2 assigned, 1 paid (50%), 3.49 USD per assigned user"))

    let rejects = try String(
      contentsOf: out.appendingPathComponent("rejects/fx_rates.csv.csv"), encoding: .utf8)
    #expect(
      rejects.contains(#"fx/rates.csv,3,"expected 3 fields as in the header, found 4","2026-09-01,EUR,1,08""#)
    )
    let manifest =
      try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json")))
      as? [String: Any]
    let fx = (manifest?["inputs"] as? [[String: Any]] ?? []).first { $0["role"] as? String == "fx.rates" }
    #expect(fx?["read"] as? Int == 2 && fx?["accepted"] as? Int == 1 && fx?["rejected"] as? Int == 1)
    let experiment = (manifest?["experiments"] as? [[String: Any]])?.first
    #expect(experiment?["fxGaps"] as? Int == 1)

    let arms = try String(contentsOf: out.appendingPathComponent("experiment_arms.csv"), encoding: .utf8)
    let rows = arms.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    #expect(rows.first == ExperimentTables.armsHeader)
    #expect(
      rows.map { $0[1] + "/" + $0[2] + "/" + $0[3] }.dropFirst() == [
        "control/reporting/USD", "high/reporting/USD", "high/currency/EUR", "high/currency/GBP",
        "control/currency/USD",
      ])
    // control, reporting: 2 assigned, 1 paid (Wilson 1/2: 0.0945–0.9055), 1 renewal, 9.98 gross, 2 × 3.49 proceeds.
    #expect(
      Array(rows[1][4...17]) == [
        "2", "0", "0", "1", "0.5000", "0.0945", "0.9055", "1", "0", "998", "0", "698", "349",
      ] + [rows[1][17]])
    #expect(rows[1][19] == "1.0000" && rows[1][20] == "1.0000" && rows[1][21] == "fx_gap")
    // high, reporting: the GBP charge converts (5.99 × 1.2710 = 7.61329 → 761; proceeds 4.19 × 1.271 = 5.32549 → 533),
    // the EUR charge is a gap and is left out.
    #expect(rows[2][13] == "761" && rows[2][15] == "533")
    #expect(rows[3][13] == "699" && rows[3][21] == "")  // EUR row: its own currency, no verdict
    let lineage = try String(
      contentsOf: out.appendingPathComponent("experiment_lineage.csv"), encoding: .utf8)
    #expect(lineage.contains("p,high,u3,app_store,300,300,0,2026-09-15T10:00:00.000Z,EUR,699,489,\n"))
    #expect(lineage.contains("p,control,u1,app_store,100,101,1,2026-10-10T10:00:00.000Z,USD,499,349,349\n"))
  }
}
