import Foundation
import Testing

@testable import StoreReconCore
@testable import StoreReconDemo

/// The demo's Play installments chains (docs/rules.md#commitment-plans): written as Play writes them,
/// present from 1,000 users (each scenario at least twice), two of their five scenarios planted findings.
@Suite struct DemoInstallmentsTests {
  @Test(arguments: [false, true])
  func aThousandUsersHoldEveryInstallmentsScenarioTwice(realistic: Bool) throws {
    let world = try GeneratedWorld(users: 1000, realistic: realistic)
    defer { world.remove() }
    let resources = try world.lines("exports/play/subscriptions.jsonl").compactMap(decodeJSONLine)
    var counts: [String: (initial: Int, remaining: Int)] = [:]
    var onHold: [String] = []
    for r in resources {
      guard let item = (r["lineItems"] as? [[String: Any]])?.first,
        let plan = item["autoRenewingPlan"] as? [String: Any],
        let details = plan["installmentDetails"] as? [String: Any], let token = r["purchaseToken"] as? String
      else { continue }
      #expect((item["offerDetails"] as? [String: Any])?["basePlanId"] as? String == "yearly-installments")
      counts[token] = (
        details["initialCommittedPaymentsCount"] as? Int ?? -1,
        details["remainingCommittedPaymentsCount"] as? Int ?? -1
      )
      if r["subscriptionState"] as? String == "SUBSCRIPTION_STATE_ON_HOLD" {
        onHold.append(token)
        #expect(plan["autoRenewEnabled"] as? Bool == true)
      }
    }
    // Five scenarios twice each (at least 2 of every scenario); 2 to 8 of the 12 committed payments made.
    #expect(counts.count == 10)
    #expect(counts.values.allSatisfy { $0.initial == 12 && (4...10).contains($0.remaining) })
    #expect(onHold.count == 2)
    // Every installment is a sales row of the installments base plan.
    var installmentRows = 0
    for path in world.salesFiles {
      installmentRows += try world.lines(path).filter { $0.contains(",yearly-installments,") }.count
    }
    let payments = counts.values.reduce(0) { $0 + 12 - $1.remaining }
    // Each payment once, and the refunds (the current one, an earlier one; twice each) as `Refund` rows.
    #expect(installmentRows == payments + 4)
    let planted = world.truth.planted.filter { counts[$0.chainKey] != nil }
    #expect(planted.map(\.reason).sorted() == ["overextended", "overextended", "refunded", "refunded"])
  }

  @Test func fewerThanAThousandUsersHoldNone() throws {
    let world = try GeneratedWorld(users: 900)
    defer { world.remove() }
    let text = String(decoding: try world.data("exports/play/subscriptions.jsonl"), as: UTF8.self)
    #expect(!text.contains("installmentDetails"))
  }
}
