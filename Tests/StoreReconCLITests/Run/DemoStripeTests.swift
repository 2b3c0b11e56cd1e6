import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconDemo
@testable import StoreReconCLI
@testable import StoreReconRun

/// The demo's web subscriptions through Stripe: exactly the planted Stripe findings and tie-out rows, and
/// the same reports from either of Stripe's API shapes.
@Suite(.serialized) struct DemoStripeTests {
  /// The report date's files of a demo world of 1,000 users written in `shape`, but the manifest
  /// (which names the inputs' checksums), and the objects file.
  static func reports(_ shape: DemoStripeShape) throws -> (files: [String: Data], objects: String) {
    let dir = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var options = DemoOptions()
    options.users = 1000
    options.stripeShape = shape
    let outcome = try DemoRun.execute(options: options, directory: dir.path, progress: MemoryProgress())
    #expect(outcome.exitCode == 0, "\(outcome.text)")
    let out = dir.appendingPathComponent("reports/2026-11-29")
    var files: [String: Data] = [:]
    let walker = FileManager.default.enumerator(atPath: out.path)
    while let name = walker?.nextObject() as? String {
      var directory: ObjCBool = false
      let url = out.appendingPathComponent(name)
      guard name != "manifest.json",
        FileManager.default.fileExists(atPath: url.path, isDirectory: &directory),
        !directory.boolValue
      else { continue }
      files[name] = try Data(contentsOf: url)
    }
    let objects = try String(
      contentsOf: dir.appendingPathComponent(DemoStripeOutputs.objectsPath), encoding: .utf8)
    return (files, objects)
  }

  @Test func bothStripeShapesGiveByteIdenticalReports() throws {
    let before = try Self.reports(.beforeBasil)
    let basil = try Self.reports(.basil)
    // The objects are written in each shape: an invoice's subscription, payment and line price, a
    // subscription's current period, a charge's invoice.
    #expect(before.objects.contains(",\"subscription\":\"sub_"))
    #expect(before.objects.contains("\"current_period_end\":"))
    #expect(!before.objects.contains("\"subscription_details\""))
    #expect(!before.objects.contains("\"invoice_payment\""))
    #expect(basil.objects.contains("\"subscription_details\":{\"subscription\":\"sub_"))
    #expect(basil.objects.contains("\"invoice_payment\""))
    #expect(basil.objects.contains("\"price_details\""))
    #expect(!basil.objects.contains(",\"subscription\":\"sub_"))
    #expect(!basil.objects.contains(",\"invoice\":\"in_"))
    #expect(before.objects != basil.objects)
    #expect(before.files.keys.sorted() == basil.files.keys.sorted())
    #expect(
      before.files["findings.csv"].map { String(decoding: $0, as: UTF8.self).contains(",stripe,") } == true)
    // The control booked in another currency: a EUR charge in the USD balance ties out through the
    // amount Stripe states in the charge's currency.
    let converted = String(decoding: before.files["tieout_orders.csv"] ?? Data(), as: UTF8.self)
      .split(separator: "\n").filter { $0.contains(",match,converted half-even from txn_") }
    #expect(converted.count == 1 && converted.allSatisfy { $0.hasPrefix("stripe,") && $0.contains(",EUR,") })
    for (name, data) in before.files.sorted(by: { $0.key < $1.key }) {
      #expect(basil.files[name] == data, "\(name) differs between the two Stripe API shapes")
    }
  }

  @Test func theDefaultDemoWritesBothShapesAndFindsEveryStripePlant() throws {
    let dir = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var options = DemoOptions()
    options.users = 2000
    let outcome = try DemoRun.execute(options: options, directory: dir.path, progress: MemoryProgress())
    #expect(outcome.missed.isEmpty && outcome.unexpected.isEmpty, "\(outcome.text)")
    #expect(outcome.tieOut?.isExact == true, "\(outcome.text)")
    let objects = try String(
      contentsOf: dir.appendingPathComponent(DemoStripeOutputs.objectsPath), encoding: .utf8)
    #expect(objects.contains("\"subscription_details\"") && objects.contains(",\"subscription\":\"sub_"))

    // Every Stripe finding kind planted twice (two per 1,000 users), double billing once against the
    // App Store and once against Play per 1,000 users, and nothing for the controls.
    let stripe = outcome.truth.planted.filter { $0.store == .stripe }
    var perReason: [String: Int] = [:]
    for p in stripe { perReason["\(p.kind)/\(p.reason)", default: 0] += 1 }
    #expect(
      perReason == [
        "orphaned_charge/unclaimed": 2, "orphaned_charge/locked_out": 2, "free_entitlement/store_expired": 6,
        "free_entitlement/refunded": 4, "free_entitlement/sandbox": 2, "duplicate_claim/multiple_users": 2,
        "double_billing/across_stores": 4, "notification_missing/never_received": 2,
      ])
    let found = outcome.result.findings.filter { $0.store == .stripe }
    #expect(found.count == stripe.count)

    try Self.checkWebhooks(dir, outcome)
    // The App Store and Play chains the web subscriptions overlap stay unflagged: the later chain is.
    #expect(found.filter { $0.reason == .acrossStores }.allSatisfy { $0.store == .stripe })

    // Each planted balance-report difference is one Stripe tie-out row; every other Stripe row matches,
    // the fees one minor unit off included.
    let orders = outcome.result.tieOut.orders.filter { $0.store == .stripe }
    var statuses: [String: Int] = [:]
    for o in orders where o.status != .match { statuses[o.status.rawValue, default: 0] += 1 }
    #expect(
      statuses == ["missing_in_report": 2, "missing_in_feed": 2, "amount_differs": 2, "fee_differs": 2])
    let offByOne = orders.filter { o in
      o.status == .match && abs(o.actualFeeMinor - o.estimatedFeeMinor) == 1
    }
    #expect(offByOne.count == 2)
    #expect(orders.filter { $0.status == .match }.count > 20)

    try Self.checkDisputeFees(dir, outcome, asOf: options.asOf)
  }

  /// Stripe's event list holds the two events the app's log never received (each one finding) and two
  /// controls: an event the log received and processed, and one of a type the endpoint does not take.
  static func checkWebhooks(_ dir: URL, _ outcome: DemoRun.Outcome) throws {
    let found = outcome.result.findings.filter { $0.store == .stripe }
    let events = try String(
      contentsOf: dir.appendingPathComponent(DemoStripeOutputs.eventsPath), encoding: .utf8
    )
    .split(separator: "\n")
    let log = try String(contentsOf: dir.appendingPathComponent("app/notifications.csv"), encoding: .utf8)
    let received = log.split(separator: "\n").filter { $0.hasPrefix("stripe,evt_") }
    #expect(events.count == 4 && received.count == 1)
    let missing = found.filter { $0.reason == .neverReceived }
    #expect(missing.count == 2)
    for line in events {
      let id = String(line.dropFirst(7).prefix(28))
      let reported = missing.contains { $0.detail.hasPrefix("notification \(id) (invoice.paid,") }
      let inLog = received.contains { $0.hasPrefix("stripe,\(id),") }
      let otherType = line.contains("\"type\":\"customer.subscription.updated\"")
      #expect(reported == (!inLog && !otherType), "\(id): reported \(reported), in the log \(inLog)")
    }
    // Nothing about the event the log received and processed.
    let receivedIds = Set(received.map { String($0.split(separator: ",")[1]) })
    #expect(!outcome.result.findings.contains { receivedIds.contains($0.notificationId ?? "") })
  }

  /// A lost dispute's balance transaction carries Stripe's dispute fee (15.00 USD, or its equivalent in
  /// the balance's currency), and revenue.csv's dispute_fees_minor is the sum of those fees.
  static func checkDisputeFees(_ dir: URL, _ outcome: DemoRun.Outcome, asOf: CivilDate) throws {
    var fees: [String: Int64] = [:]
    let reports = dir.appendingPathComponent("exports/stripe/reports")
    for name in try FileManager.default.contentsOfDirectory(atPath: reports.path) {
      let text = try String(contentsOf: reports.appendingPathComponent(name), encoding: .utf8)
      for line in text.split(separator: "\n") where line.contains(",dispute,") {
        let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let currency = try #require(Currency.named(f[3].uppercased()))
        let fee = try currency.minor(decimal: f[5])
        #expect(fee > 0 && (currency.code != "USD" || fee == 1500), "\(line)")
        fees[currency.code, default: 0] += fee
      }
    }
    #expect(!fees.isEmpty)
    let revenue = try String(
      contentsOf: dir.appendingPathComponent("reports/\(asOf)/revenue.csv"), encoding: .utf8)
    var booked: [String: Int64] = [:]
    for line in revenue.split(separator: "\n") where line.contains(",stripe,") {
      let f = line.split(separator: ",", omittingEmptySubsequences: false)
      booked[String(f[3]), default: 0] += Int64(f[12]) ?? 0
    }
    #expect(booked.filter { $0.value != 0 } == fees)
    #expect(outcome.result.payouts.filter { $0.store == .stripe }.allSatisfy { $0.status == .addsUp })
  }
}
