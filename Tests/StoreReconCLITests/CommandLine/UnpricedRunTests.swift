import Foundation
import Testing
import StoreReconTestSupport

/// An App Store transaction without `price`/`currency` (StoreKit testing, older transactions) is an
/// unpriced charge: accepted, counted apart, left out of revenue (docs/inputs.md).
@Suite struct UnpricedRunTests {
  static func append(_ text: String, to path: URL) throws {
    let handle = try FileHandle(forWritingTo: path)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(text.utf8))
    try handle.close()
  }

  @Test func anUnpricedTransactionIsAcceptedCountedApartAndLeftOutOfRevenue() throws {
    let world = try RunWorld()
    defer { world.remove() }
    _ = try SignatureRunTests.loudRun(world)
    let revenueBefore = try world.file("revenue.csv")
    let acceptedBefore = try SignatureRunTests.appStoreInput(world)["accepted"] as? Int ?? 0
    func line(_ id: String) -> String {
      #"{"transactionId":"\#(id)","originalTransactionId":"\#(id)","productId":"com.acme.lifetime","#
        + #""purchaseDate":1795000000000,"type":"Non-Consumable","environment":"Production"}"# + "\n"
    }
    try Self.append(
      line("7000000000000001") + line("7000000000000002"),
      to: world.directory.appendingPathComponent("exports/apple/transactions.jsonl"))
    // An entitlement the first unpriced purchase backs; nobody claims the second.
    try Self.append(
      "ent_unpriced,u_unpriced,com.acme.lifetime,app_store,7000000000000001,active,2026-11-18T00:00:00Z,,\n",
      to: world.directory.appendingPathComponent("app/entitlements.csv"))
    let output = try SignatureRunTests.loudRun(world)
    let input = try SignatureRunTests.appStoreInput(world)
    #expect(input["unpriced"] as? Int == 2)
    #expect(input["accepted"] as? Int == acceptedBefore + 2)
    #expect(output.stdout.contains("(unpriced 2)"))
    #expect(
      try world.file("summary.txt").contains("Unpriced, exports/apple/transactions.jsonl: 2 transactions"))
    #expect(try world.file("revenue.csv") == revenueBefore)
    // The purchase backs the entitlement (no false no_store_record); with no money known, the unclaimed
    // one is no orphaned charge either.
    let findings = try world.file("findings.csv").split(separator: "\n")
    #expect(!findings.contains { $0.contains("ent_unpriced") || $0.contains("u_unpriced") })
    #expect(!findings.contains { $0.contains("700000000000000") })
  }
}
