import Foundation
import Testing

@testable import StoreReconCore
@testable import StoreReconDemo

/// The realistic world's Stripe web subscriptions (``DemoStripeWeb``): Stripe's objects in both API
/// shapes, as a webhook log and a list export, and its balance report, claimed by the app's rows.
@Suite("Demo world, realistic: Stripe")
struct DemoRealisticStripeTests {
  @Test func stripeObjectsComeInBothAPIShapesWithStripesIds() throws {
    let world = try GeneratedWorld(users: 3000, realistic: true)
    defer { world.remove() }
    let events = try world.lines(DemoStripeWeb.eventsPath)
    let objects = try world.lines(DemoStripeWeb.objectsPath)
    #expect(events.count > 1000 && objects.count > 300, "\(events.count) events, \(objects.count) objects")
    #expect(events.allSatisfy { $0.contains(#""object":"event""#) })
    // Both API versions, and an invoice of each shape.
    #expect(events.contains { $0.contains(#""api_version":"2024-06-20""#) })
    #expect(events.contains { $0.contains(#""api_version":"2025-03-31.basil""#) })
    let lines = events + objects
    #expect(lines.contains { $0.contains(#""object":"invoice""#) && $0.contains(#""subscription":"sub_"#) })
    #expect(
      lines.contains {
        $0.contains(#""object":"invoice""#)
          && $0.contains(#""subscription_details":{"metadata":{},"subscription":"sub_"#)
      })
    #expect(lines.contains { $0.contains(#""current_period_end":"#) })
    #expect(lines.contains { $0.contains(#""object":"invoice_payment""#) })
    // Ids of Stripe's length: a prefix and 24 characters.
    let ids = try NSRegularExpression(pattern: #""(sub|in|ch|pi|txn|re|du|evt)_([0-9A-Za-z]+)""#)
    var seen: Set<String> = []
    for line in lines.prefix(2000) {
      for match in ids.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
        guard let prefix = Range(match.range(at: 1), in: line), let rest = Range(match.range(at: 2), in: line)
        else { continue }
        seen.insert(String(line[prefix]))
        #expect(line[rest].count == 24, "\(line[prefix])_\(line[rest])")
      }
    }
    #expect(seen.isSuperset(of: ["sub", "in", "ch", "pi", "txn", "evt"]), "\(seen)")
    // Money back of every kind.
    #expect(lines.contains { $0.contains(#""object":"refund""#) })
    #expect(lines.contains { $0.contains(#""type":"charge.dispute.closed""#) })
  }

  @Test func theBalanceReportHasTwoColumnSetsPayoutsAndMajorUnits() throws {
    let world = try GeneratedWorld(users: 3000, realistic: true)
    defer { world.remove() }
    let reports = world.truth.files.filter { $0.hasPrefix(DemoStripeWeb.reportsFolder + "/") }
    #expect(reports.count > 40)
    var headers: Set<String> = []
    var categories: Set<String> = []
    var payouts = 0
    for path in reports {
      let lines = try world.lines(path)
      headers.insert(lines[0])
      for row in lines.dropFirst() {
        let f = csvFields(row)
        categories.insert(
          f.first { ["charge", "refund", "dispute", "dispute_reversal", "payout"].contains($0) } ?? "")
        if row.contains(",payout,") { payouts += 1 }
      }
    }
    #expect(
      headers == [
        DemoStripeWeb.dashboardColumns.joined(separator: ","),
        DemoStripeWeb.apiColumns.joined(separator: ","),
      ])
    #expect(categories.isSuperset(of: ["charge", "refund", "payout"]), "\(categories)")
    #expect(payouts > 100)
    let config = try String(decoding: world.data("storerecon.json"), as: UTF8.self)
    #expect(config.contains(#""stripe": {"#) && config.contains(#""stripe:pro_monthly""#))
  }

  @Test func webSubscribersAreClaimedAndPlantedAndTheClassicWorldHasNoneOfThem() throws {
    let world = try GeneratedWorld(users: 3000, realistic: true)
    defer { world.remove() }
    let stripeRows = try world.lines("app/entitlements.csv").filter { $0.contains(",stripe,sub_") }
    #expect(stripeRows.count > 150, "\(stripeRows.count) Stripe entitlements")
    #expect(world.truth.planted.contains { $0.store == .stripe && $0.kind == "double_billing" })
    let classic = try GeneratedWorld(users: 600)
    defer { classic.remove() }
    #expect(!classic.truth.files.contains(DemoStripeWeb.eventsPath))
    #expect(!classic.truth.files.contains { $0.hasPrefix(DemoStripeWeb.reportsFolder) })
  }
}
