import Foundation
import Testing
import StoreReconTestSupport

/// A run on Stripe files: the planted web-subscription problems are found and the controls are not;
/// both Stripe API shapes give the same reports; bad lines are rejected one by one (docs/inputs.md#stripe-objects).
@Suite(.serialized) struct StripeRunTests {
  /// `findings.csv`'s rows as (kind, reason-bearing line) pairs, for chains of the world.
  static func findings(_ world: StripeWorld) throws -> [String] {
    try world.file("findings.csv").split(separator: "\n").dropFirst().map(String.init)
  }

  @Test func plantedStripeProblemsAreFoundAndControlsAreNot() throws {
    let world = try StripeWorld(shape: .basil)
    defer { world.remove() }
    let result = try world.run()
    #expect([0, 1, 3].contains(result.status), "\(result.stderr)")
    let rows = try Self.findings(world)
    for (plant, finding) in StripeWorld.plants {
      let key = StripeWorld.id("sub", plant.name)
      let hits = rows.filter { $0.contains(key) }
      if let finding {
        #expect(hits.contains { $0.contains(finding) }, "\(plant.name): \(hits)")
      } else {
        #expect(hits.isEmpty, "\(plant.name) is a control: \(hits)")
      }
    }
  }

  @Test func bothAPIShapesGiveTheSameReports() throws {
    let old = try StripeWorld(shape: .acacia)
    let new = try StripeWorld(shape: .basil)
    defer {
      old.remove()
      new.remove()
    }
    _ = try old.run()
    _ = try new.run()
    let names = try FileManager.default.contentsOfDirectory(atPath: old.out.path).filter {
      $0.hasSuffix(".csv")
    }
    #expect(names.contains("findings.csv") && names.contains("revenue.csv"))
    for name in names.sorted() {
      let a = try old.file(name).split(separator: "\n")
      let b = try new.file(name).split(separator: "\n")
      let first = zip(a, b).first { $0 != $1 }.map { "\($0.0)\n\($0.1)" } ?? "\(a.count) vs \(b.count) lines"
      #expect(a == b, "\(name) differs between the API shapes: \(first)")
    }
  }
}

extension StripeRunTests {
  /// From 2025-03-31 an invoice names its payments only when `payments` is expanded; an export that lists
  /// `invoice_payment` objects on their own must link them as the expanded list does.
  @Test func invoicePaymentsListedOnTheirOwnLinkChargesToTheirInvoices() throws {
    let expanded = try StripeWorld(shape: .basil)
    let listed = try StripeWorld(shape: .basil)
    defer {
      expanded.remove()
      listed.remove()
    }
    var lines: [String] = []
    var moved = 0
    for object in StripeWorld.objects(.basil) {
      var object = object
      if object["object"] as? String == "invoice", let payments = object["payments"] as? [String: Any] {
        object.removeValue(forKey: "payments")
        for var payment in payments["data"] as? [[String: Any]] ?? [] {
          payment["invoice"] = object["id"]
          lines.append(StripeWorld.json(payment))
          moved += 1
        }
      }
      lines.append(StripeWorld.json(object))
    }
    #expect(moved >= 5, "the basil world pays its invoices through payments")
    try listed.write("exports/stripe/objects.jsonl", lines.joined(separator: "\n") + "\n")
    _ = try expanded.run()
    _ = try listed.run()
    for name in ["findings.csv", "revenue.csv", "charges.csv"] {
      #expect(try expanded.file(name) == listed.file(name), "\(name)")
    }
  }

  @Test func revenueCountsStripeChargesAndRefundsInTheirCurrency() throws {
    let world = try StripeWorld(shape: .acacia)
    defer { world.remove() }
    try world.setFees(["stripe": ["bp": 290]])
    _ = try world.run()
    let revenue = try world.file("revenue.csv").split(separator: "\n").map(String.init)
    // ISK 129900 in Stripe's units is 1299 króna; 2.9 % of it is 37.67, rounded half-even once: 38.
    #expect(revenue.contains("2026-11-12,stripe,pro_monthly,ISK,1,1299,0,0,0,1261,estimated,0,0"))
    // The partial refund (300 króna) takes back its share of the proceeds and leaves the chain alone.
    #expect(revenue.contains("2026-11-14,stripe,pro_monthly,ISK,0,0,0,300,1,-291,estimated,0,0"))
    #expect(revenue.contains("2026-11-05,stripe,pro_monthly,JPY,1,1500,0,0,0,1456,estimated,0,0"))
    // A full refund and a lost dispute each return the whole charge, once.
    #expect(revenue.contains("2026-11-20,stripe,pro_monthly,USD,0,0,0,999,1,-970,estimated,0,0"))
    // Test mode moves no money; the trial and the open invoices charge nothing: 12 paid live invoices
    // (the unpaid subscription's one paid period included).
    let stripeCharges = revenue.filter { $0.contains(",stripe,") }.compactMap {
      Int($0.split(separator: ",")[4])
    }
    #expect(stripeCharges.reduce(0, +) == 12)
    let charges = try world.file("charges.csv")
    #expect(charges.contains(",\(StripeWorld.id("in", "partial0")),"))
    #expect(!charges.contains(StripeWorld.id("sub", "testmode")))
  }
}

extension StripeRunTests {
  /// The manifest's entry for `path`.
  static func input(_ world: StripeWorld, _ path: String) throws -> [String: Any]? {
    let manifest =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: world.out.appendingPathComponent("manifest.json")))
      as? [String: Any]
    let inputs = manifest?["inputs"] as? [[String: Any]] ?? []
    return inputs.first { $0["path"] as? String == path }
  }

  @Test func everyLineIsAccountedForAndBadLinesAreRejectedOneByOne() throws {
    let bad = [
      "not json at all",
      #"{"object":"invoice","id":"in_1BadCurrencyXYZ0000000","status":"paid","amount_paid":5,"currency":"xyz"}"#,
      #"{"object":"payout","id":"po_1","amount":100,"currency":"usd","livemode":true}"#,
    ]
    let world = try StripeWorld(shape: .basil, extraLines: bad)
    defer { world.remove() }
    let clean = try StripeWorld(shape: .basil)
    defer { clean.remove() }
    let result = try world.run()
    _ = try clean.run()
    let entry = try #require(try Self.input(world, "exports/stripe/objects.jsonl"))
    let n = { (key: String) in entry[key] as? Int ?? -1 }
    #expect(n("read") == n("accepted") + n("rejected") + n("duplicates") + n("superseded"))
    #expect(n("rejected") == 2)
    #expect(n("superseded") == 1)  // the canceled subscription's older, active state
    let rejects = try world.file(entry["rejectsFile"] as? String ?? "")
    #expect(rejects.contains("not valid JSON"))
    #expect(rejects.contains("unknown currency 'xyz'"))
    // Nothing else changes: the findings are the clean world's.
    #expect(try world.file("findings.csv") == clean.file("findings.csv"))
  }

  @Test func aPlayFileUnderStripeObjectsIsNamed() throws {
    let world = try StripeWorld(shape: .basil)
    defer { world.remove() }
    try Data(
      "{\"purchaseToken\":\"t\",\"subscriptionState\":\"SUBSCRIPTION_STATE_ACTIVE\",\"lineItems\":[]}\n".utf8
    )
    .write(to: world.directory.appendingPathComponent("exports/stripe/subs.jsonl"))
    let result = try world.run()
    #expect(result.status == 65, "\(result.stderr)")
    #expect(result.stderr.contains("subs.jsonl") && result.stderr.contains("play.subscriptions"))
  }

  @Test func aDamagedGzipUnderStripeObjectsIsNamedAndTheRunGoesOn() throws {
    let world = try StripeWorld(shape: .basil)
    defer { world.remove() }
    try Data("this is not gzip".utf8).write(
      to: world.directory.appendingPathComponent("exports/stripe/more.jsonl.gz"))
    try world.setConfig(["stripe": ["objects": ["exports/stripe/*.jsonl", "exports/stripe/*.jsonl.gz"]]])
    let result = try world.run()
    #expect(result.stderr.contains("more.jsonl.gz"), "\(result.stderr)")
    let entry = try #require(try Self.input(world, "exports/stripe/more.jsonl.gz"))
    #expect(entry["read"] as? Int == 0)
    #expect(try world.file("findings.csv").contains(StripeWorld.id("sub", "orphan")))
  }
}

extension StripeRunTests {
  @Test func anOpenDisputeIsNamedInItsChainsFindingAsMoneyAtStake() throws {
    func dispute(_ id: String, _ plant: String, _ status: String) -> String {
      "{\"id\":\"\(id)\",\"object\":\"dispute\",\"amount\":999,\"currency\":\"usd\",\"charge\":\""
        + StripeWorld.id("ch", plant + "0") + "\",\"status\":\"\(status)\",\"created\":"
        + "\(StripeWorld.at(11, 22)),\"livemode\":true,\"reason\":\"fraudulent\"}"
    }
    let world = try StripeWorld(
      shape: .basil,
      extraLines: [
        dispute("dp_1OpenCanceled", "canceled", "needs_response"),
        dispute("dp_1WonOrphan", "orphan", "won"), dispute("dp_1InquiryOrphan", "orphan", "warning_closed"),
      ])
    defer { world.remove() }
    let clean = try StripeWorld(shape: .basil)
    defer { clean.remove() }
    _ = try world.run()
    _ = try clean.run()
    let rows = try Self.findings(world)
    let canceled = rows.filter { $0.contains(StripeWorld.id("sub", "canceled")) }
    #expect(canceled.count == 1)
    #expect(
      canceled.allSatisfy {
        $0.contains(
          "; open dispute dp_1OpenCanceled (needs_response, 9.99 USD, opened 2026-11-22T12:00:00.000Z)")
          && $0.contains(": money at stake") && $0.contains(",USD,999,")
      }, "\(canceled)")
    // A dispute won, and an inquiry closed, are decided: nothing at stake, nothing said.
    #expect(!rows.contains { $0.contains("dp_1WonOrphan") || $0.contains("dp_1InquiryOrphan") })
    // An open dispute moves no money: revenue is the clean world's.
    #expect(try world.file("revenue.csv") == clean.file("revenue.csv"))
    #expect(rows.count == (try Self.findings(clean)).count)
  }
}
