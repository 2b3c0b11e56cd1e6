import Foundation
import Testing
import StoreReconTestSupport

/// A run with Stripe's balance report beside the Stripe objects: settled proceeds, one tie-out row per
/// planted difference, payouts, duplicates and wrong files (docs/tieout.md#stripe-charges-and-refunds).
@Suite(.serialized) struct StripeBalanceRunTests {
  static let header =
    "balance_transaction_id,created_utc,currency,gross,fee,net,reporting_category,source_id,charge_id,"
    + "invoice_id,automatic_payout_id,automatic_payout_effective_at_utc"

  /// Stripe's amount in its smallest unit as the report's major-unit decimal.
  static func major(_ amount: Int, _ currency: String) -> String {
    let zero: Set<String> = ["jpy", "krw", "clp", "vnd"]
    if zero.contains(currency) { return String(amount) }
    let sign = amount < 0 ? "-" : ""
    let a = abs(amount)
    return "\(sign)\(a / 100).\(String(format: "%02d", a % 100))"
  }

  static func time(_ seconds: Int) -> String {
    let date = Date(timeIntervalSince1970: TimeInterval(seconds))
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.timeZone = TimeZone(identifier: "UTC")
    f.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return f.string(from: date)
  }

  /// One report row per live charge and succeeded refund of the world's objects, Stripe keeping 2.9 %
  /// (half-even) of each charge; `plant` may change or drop each row (by its charge or refund id).
  static func report(_ world: StripeWorld, plant: (String, inout [String]?) -> Void = { _, _ in }) throws
    -> String
  {
    let text = try String(
      contentsOf: world.directory.appendingPathComponent("exports/stripe/objects.jsonl"), encoding: .utf8)
    var lines = [header]
    var n = 0
    for line in text.split(separator: "\n") {
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let type = object["object"] as? String, let id = object["id"] as? String,
        let amount = object["amount"] as? Int, let currency = object["currency"] as? String,
        let created = object["created"] as? Int
      else { continue }
      guard object["livemode"] as? Bool ?? true, (object["status"] as? String) == "succeeded" else {
        continue
      }
      n += 1
      var cells: [String]?
      if type == "charge" {
        let fee = (amount * 290 + 5000) / 10_000
        cells = [
          "txn_\(n)", time(created), currency, major(amount, currency), major(fee, currency),
          major(amount - fee, currency), "charge", id, id, "", "po_1", "2026-11-30 00:00:00",
        ]
      } else if type == "refund", let charge = object["charge"] as? String {
        cells = [
          "txn_\(n)", time(created), currency, major(-amount, currency), major(0, currency),
          major(-amount, currency), "refund", id, charge, "", "po_1", "2026-11-30 00:00:00",
        ]
      }
      plant(id, &cells)
      if let cells { lines.append(cells.joined(separator: ",")) }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func configure(_ world: StripeWorld, reports: [String] = ["exports/stripe/reports/*.csv"]) throws {
    try FileManager.default.createDirectory(
      at: world.directory.appendingPathComponent("exports/stripe/reports"), withIntermediateDirectories: true)
    try world.setConfig([
      "stripe": ["objects": ["exports/stripe/objects.jsonl"], "reports": reports],
      "fees": ["stripe": ["bp": 290]],
    ])
  }

  static func write(_ world: StripeWorld, _ name: String, _ text: String) throws {
    try Data(text.utf8).write(to: world.directory.appendingPathComponent("exports/stripe/reports/\(name)"))
  }

  static func stripeOrders(_ world: StripeWorld) throws -> [[String]] {
    try world.file("tieout_orders.csv").split(separator: "\n").dropFirst().map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }.filter { $0.first == "stripe" }
  }

  @Test func everyPlantedDifferenceIsOneRowAndTheRestMatch() throws {
    let world = try StripeWorld(shape: .basil)
    defer { world.remove() }
    try Self.configure(world)
    var planted: [String: String] = [:]
    var charges = 0
    let text = try Self.report(world) { id, cells in
      guard var c = cells, c[6] == "charge" else { return }
      charges += 1
      switch charges {
      case 1:
        cells = nil
        planted[id] = "missing_in_report"
      case 2:
        c[3] = "1.00"
        c[5] = "1.00"
        planted[id] = "amount_differs"
        cells = c
      case 3:
        c[4] = c[3]
        c[5] = c[2] == "jpy" ? "0" : "0.00"
        planted[id] = "fee_differs"
        cells = c
      default: break
      }
    }
    // A charge of the account the feed never saw; two fee rows (not tied out) bound the report's interval
    // around every charge of the world.
    let extra =
      [
        "txn_web,2026-11-10 10:00:00,usd,5.00,0.15,4.85,charge,ch_notinfeed,ch_notinfeed,,po_1,2026-11-30 00:00:00",
        "txn_f1,2026-01-01 00:00:00,usd,-1.00,0.00,-1.00,fee,fee_1,,,,",
        "txn_f2,2026-11-28 23:00:00,usd,-1.00,0.00,-1.00,fee,fee_2,,,,",
      ].joined(separator: "\n") + "\n"
    planted["ch_notinfeed"] = "missing_in_feed"
    try Self.write(world, "balance_2026-11.csv", text + extra)
    let result = try world.run()
    #expect([0, 1, 3].contains(result.status), "\(result.stderr)")
    let orders = try Self.stripeOrders(world)
    let differences = Dictionary(
      uniqueKeysWithValues: orders.filter { $0[9] != "match" }.map { ($0[1], $0[9]) })
    // The report's first and last rows bound its interval: the dropped first charge may fall before it.
    #expect(
      differences.filter { $0.value != "missing_in_report" }
        == planted.filter { $0.value != "missing_in_report" })
    #expect(orders.filter { $0[9] == "match" }.count >= 5, "\(orders)")
    // Stripe's rows say what to do in Stripe's terms (docs/reports.md#what-to-do-and-docs).
    let orderLines = try world.file("tieout_orders.csv").split(separator: "\n").filter {
      $0.hasPrefix("stripe,")
    }
    for line in orderLines where !line.contains(",match,") {
      #expect(line.contains("Stripe Dashboard") && !line.contains("Play Console"), "\(line)")
      #expect(!line.contains("fees.play"), "\(line)")
    }
    let findingLines = try world.file("findings.csv").split(separator: "\n").filter {
      $0.split(separator: ",", maxSplits: 4).dropFirst(3).first == "stripe"
    }
    #expect(findingLines.count >= 3)
    for line in findingLines {
      #expect(!line.contains("App Store Connect") && !line.contains("Play Console"), "\(line)")
    }
    #expect(findingLines.contains { $0.contains("Stripe Dashboard") })
    let revenue = try world.file("revenue.csv")
    #expect(revenue.contains(",settled"))
    let payouts = try world.file("payouts.csv")
    #expect(payouts.contains("stripe,po_1,2026-11-30,payout,"))
  }

  /// Stripe's dispute rows are revenue.csv's `disputed_minor` and `dispute_fees_minor` on their days,
  /// under their charge's product (docs/tieout.md#disputes-in-revenuecsv).
  @Test func disputeRowsAreRevenueColumnsOfTheirOwn() throws {
    let world = try StripeWorld(shape: .basil)
    defer { world.remove() }
    try Self.configure(world)
    let lost = StripeWorld.id("ch", "dispute0")
    let won = StripeWorld.id("ch", "canceled0")
    func row(
      _ id: String, _ day: Int, _ gross: String, _ fee: String, _ net: String, _ category: String,
      _ charge: String
    ) -> String {
      "\(id),\(Self.time(Int(StripeWorld.at(11, day)))),usd,\(gross),\(fee),\(net),\(category),du_\(id),"
        + "\(charge),,po_1,2026-11-30 00:00:00"
    }
    let disputes = [
      row("txn_d1", 20, "-9.99", "15.00", "-24.99", "dispute", lost),
      row("txn_d2", 21, "-9.99", "15.00", "-24.99", "dispute", won),
      row("txn_d3", 24, "9.99", "-15.00", "24.99", "dispute_reversal", won),
      row("txn_d4", 21, "-5.00", "15.00", "-20.00", "dispute", "ch_notinfeed"),
    ]
    try Self.write(world, "balance.csv", try Self.report(world) + disputes.joined(separator: "\n") + "\n")
    let result = try world.run()
    #expect([0, 1, 3].contains(result.status), "\(result.stderr)")
    let lines = try world.file("revenue.csv").split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    #expect(Array(lines[0].suffix(2)) == ["disputed_minor", "dispute_fees_minor"])
    func disputed(_ day: Int) -> [String] {
      lines.filter { $0[0] == "2026-11-\(day)" && $0[1] == "stripe" && ($0[11] != "0" || $0[12] != "0") }
        .map { "\($0[2]) \($0[3]) \($0[11]) \($0[12])" }
    }
    #expect(disputed(20) == ["pro_monthly USD 999 1500"])
    // A charge the feed does not hold is left out.
    #expect(disputed(21) == ["pro_monthly USD 999 1500"])
    // The won dispute's reversal: a day without charges gets a row of its own.
    #expect(disputed(24) == ["pro_monthly USD -999 -1500"])
    #expect(lines.contains { $0[0] == "2026-11-24" && $0[1] == "stripe" && $0[4] == "0" && $0[11] == "-999" })
    // The App Store and Play have no disputes; no other Stripe day has any.
    #expect(lines.dropFirst().filter { $0[11] != "0" || $0[12] != "0" }.count == 3)
  }

  @Test func aRowWithTooManyDecimalsIsRejectedAndARepeatedReportCountsOnce() throws {
    let world = try StripeWorld(shape: .basil)
    defer { world.remove() }
    try Self.configure(world)
    let text = try Self.report(world)
    try Self.write(world, "a.csv", text)
    try Self.write(
      world, "b.csv", text + "txn_bad,2026-11-10 10:00:00,usd,5.005,0.15,4.855,charge,ch_x,ch_x,,,\n")
    let result = try world.run()
    #expect([0, 1, 3].contains(result.status), "\(result.stderr)")
    let manifest =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: world.out.appendingPathComponent("manifest.json")))
      as? [String: Any]
    let inputs = (manifest?["inputs"] as? [[String: Any]] ?? []).filter {
      ($0["path"] as? String ?? "").hasPrefix("exports/stripe/reports/")
    }
    try #require(inputs.count == 2)
    let (a, b) = (inputs[0], inputs[1])
    let n = { (key: String) in b[key] as? Int ?? -1 }
    let first = { (key: String) in a[key] as? Int ?? -1 }
    // b.csv is a.csv again plus one bad row: its rows a.csv accepted are duplicates, the rest rejected.
    #expect(first("read") == first("accepted") + first("rejected") && first("accepted") > 0, "\(a)")
    #expect(n("read") == first("read") + 1 && n("accepted") == 0, "\(b)")
    #expect(n("duplicates") == first("accepted") && n("rejected") == first("rejected") + 1, "\(b)")
    let rejects = try world.file(b["rejectsFile"] as? String ?? "")
    #expect(rejects.contains("gross '5.005' has more digits than USD allows"))
  }

  @Test func aChangedBalanceTransactionStopsTheRunAndAWrongFileIsNamed() throws {
    let world = try StripeWorld(shape: .basil)
    defer { world.remove() }
    try Self.configure(world)
    let text = try Self.report(world)
    try Self.write(world, "a.csv", text)
    try Self.write(world, "b.csv", text.replacingOccurrences(of: "po_1", with: "po_2"))
    let conflict = try world.run()
    #expect(conflict.status == 65, "\(conflict.stderr)")
    #expect(conflict.stderr.contains("txn_1") && conflict.stderr.contains("b.csv"))
    try FileManager.default.removeItem(
      at: world.directory.appendingPathComponent("exports/stripe/reports/b.csv"))
    try FileManager.default.copyItem(
      at: world.directory.appendingPathComponent("exports/stripe/objects.jsonl"),
      to: world.directory.appendingPathComponent("exports/stripe/reports/objects.csv"))
    let wrong = try world.run()
    #expect(wrong.status == 65, "\(wrong.stderr)")
    #expect(wrong.stderr.contains("objects.csv") && wrong.stderr.contains("stripe.objects"))
  }
}
