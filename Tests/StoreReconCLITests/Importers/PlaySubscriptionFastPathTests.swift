import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters
@testable import StoreReconDemo

/// The subscription fast path must take the plain resources and pack exactly what the full path packs.
@Suite struct PlaySubscriptionFastPathTests {
  /// What a batch holds after one line, as text.
  static func describe(_ batch: RecordBatch) -> String {
    let statuses = batch.statuses.enumerated().map { n, s in
      let bases = batch.statusBases.filter { $0.status == n }.map { $0.base.string(pool: batch.texts) }
        .sorted()
      let v = batch.products.variants[Int(s.variant)]
      return [
        batch.statusKeys[n].string(pool: batch.texts), "\(batch.statusSpaces[n])", "\(s.at)", "\(s.expires)",
        "\(s.amount)", "\(s.currency)", "\(s.flags)", s.latestOrder.optionalString(pool: batch.texts) ?? "-",
        s.linked.optionalString(pool: batch.texts) ?? "-", batch.products.names[Int(v.name)],
        batch.products.types[Int(v.type)], s.token == 0 ? "-" : batch.tokens.string(s.token - 1),
        bases.joined(separator: "+"),
      ].joined(separator: " ")
    }
    return statuses.joined(separator: "\n") + " first \(batch.firstAt) last \(batch.lastAt)"
  }

  static func check(
    _ text: String, expectFast: Bool? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let line = text
    var bytesOfLine = text
    bytesOfLine.withUTF8 { bytes in
      let full = RecordBatch()
      var fullResult = "accepted"
      do {
        full.add(
          try PlaySubscriptionImporter.transaction(
            from: try JSONLinesImport.parse(bytes), origin: Origin(file: 0, line: 1)))
      } catch {
        fullResult = "rejected"
      }
      let fast = RecordBatch()
      var packer = PlaySubscriptionImporter.Packer()
      let took = packer.packPlain(bytes, into: fast)
      if let expectFast { #expect(took == expectFast, "\(line)", sourceLocation: sourceLocation) }
      if took {
        #expect(fullResult == "accepted", "\(line)", sourceLocation: sourceLocation)
        #expect(describe(fast) == describe(full), "\(line)", sourceLocation: sourceLocation)
      }
    }
  }

  static let base =
    #"{"purchaseToken":"tok.AO-1","kind":"androidpublisher#subscriptionPurchaseV2","regionCode":"DE","startTime":"2026-03-17T04:18:07.000Z","subscriptionState":"SUBSCRIPTION_STATE_ACTIVE","lineItems":[{"productId":"pro","expiryTime":"2027-03-24T04:18:07.000Z","latestSuccessfulOrderId":"GPA.1928-4331-4712-34567..0","autoRenewingPlan":{"autoRenewEnabled":true,"recurringPrice":{"currencyCode":"EUR","units":"33","nanos":610000000}},"offerDetails":{"basePlanId":"yearly","offerId":"trial-7d"},"offerPhase":{"basePrice":{}}}],"acknowledgementState":"ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED","externalAccountIdentifiers":{"obfuscatedExternalAccountId":"u0000002"}}"#

  @Test func plainResourceTakesTheFastPath() {
    Self.check(Self.base, expectFast: true)
  }

  static let edits: [(String, String)] = [
    (#""offerPhase":{"basePrice":{}}"#, #""offerPhase":{"freeTrial":{}}"#),
    (#""offerPhase":{"basePrice":{}}"#, #""offerPhase":{"freeTrial":null}"#),
    (
      #""subscriptionState":"SUBSCRIPTION_STATE_ACTIVE""#,
      #""subscriptionState":"SUBSCRIPTION_STATE_PENDING""#
    ),
    (#""startTime":"2026-03-17T04:18:07.000Z","#, ""),
    (#""startTime":"2026-03-17T04:18:07.000Z""#, #""startTime":"yesterday""#),
    (#""units":"33""#, #""units":33"#),
    (#""units":"33""#, #""units":"033""#),
    (#""units":"33""#, #""units":"3.5""#),
    (#""nanos":610000000"#, #""nanos":610000001"#),
    (#""currencyCode":"EUR""#, #""currencyCode":"XXX""#),
    (#""currencyCode":"EUR","#, ""),
    (#""purchaseToken":"tok.AO-1""#, #""purchaseToken":"""#),
    (#""purchaseToken":"tok.AO-1""#, #""purchaseToken":17"#),
    (#""purchaseToken":"tok.AO-1""#, #""purchaseToken":true"#),
    (#""regionCode":"DE""#, #""testPurchase":{},"regionCode":"DE""#),
    (#""regionCode":"DE""#, #""linkedPurchaseToken":"old.AO-2","latestOrderId":"GPA.1111-2222-3333-44444""#),
    (
      #""lineItems":["#,
      #""lineItems":[{"productId":"old","expiryTime":"2026-04-24T04:18:07.000Z","latestSuccessfulOrderId":"GPA.0000-0000-0000-00000..3"},"#
    ),
    (#""lineItems":["#, #""lineItems":[7,"#),
    (#""lineItems":[{"productId":"pro""#, #""lineItems":[{"productId":"pro","productId":"max""#),
    (
      #""offerDetails":{"basePlanId":"yearly","offerId":"trial-7d"}"#,
      #""offerDetails":{"basePlanId":"yearly","offerId":[]}"#
    ),
    (#""offerDetails":{"basePlanId":"yearly","offerId":"trial-7d"}"#, #""offerDetails":"yearly""#),
    (#""obfuscatedExternalAccountId":"u0000002""#, #""obfuscatedExternalAccountId":"""#),
    (#""latestSuccessfulOrderId":"GPA.1928-4331-4712-34567..0""#, #""latestSuccessfulOrderId":"odd..007""#),
    (#""kind":"androidpublisher#subscriptionPurchaseV2""#, #""kind":"caf\u00e9""#),
    (#""kind":"androidpublisher#subscriptionPurchaseV2""#, #""kind":"café""#),
    (#""lineItems":[{"#, #""lineItems":[{"x":[[[[{"y":1e5}]]]],"#),
    (#""lineItems":[{"#, #""lineItems":[{"x":01,"#),
  ]

  @Test(arguments: edits)
  func fastPathAgreesWithFullPath(edit: (String, String)) {
    Self.check(Self.base.replacingOccurrences(of: edit.0, with: edit.1))
  }

  @Test func demoWorldLinesAgree() throws {
    let dir = try TempDir()
    var options = DemoOptions()
    options.users = 300
    _ = try DemoWorld.generate(options, into: dir.url.path)
    let text = try String(contentsOfFile: dir.path("exports/play/subscriptions.jsonl"), encoding: .utf8)
    var fast = 0
    for line in text.split(separator: "\n") {
      let full = String(line)
      var copy = full
      let took = copy.withUTF8 { bytes in
        var packer = PlaySubscriptionImporter.Packer()
        return packer.packPlain(bytes, into: RecordBatch())
      }
      if took { fast += 1 }
      Self.check(full)
    }
    #expect(fast > 0)
  }
}
