import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters
@testable import StoreReconDemo

/// The fast path must accept only what the full path accepts, and yield exactly the same record.
@Suite struct AppStoreFastPathTests {
  static func fullPath(_ line: String) -> String {
    var line = line
    return line.withUTF8 { bytes in
      do {
        return String(
          describing: try AppStoreTransactionImporter.transaction(
            line: bytes, origin: Origin(file: 0, line: 1), checker: JWSChecker(JWSVerifier(mode: .off))
          ).0)
      } catch {
        return "rejected"
      }
    }
  }

  static func fastPath(_ line: String) -> String? {
    var line = line
    return line.withUTF8 { bytes in
      AppStoreFastPath().transaction(bytes, origin: Origin(file: 0, line: 1)).map { String(describing: $0) }
    }
  }

  static let base =
    #"{"transactionId":"2000000000000123","originalTransactionId":"2000000000000100","productId":"com.acme.pro.monthly","purchaseDate":1764000000000,"originalPurchaseDate":1763000000000,"expiresDate":1766600000000,"type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","environment":"Production","transactionReason":"RENEWAL","currency":"USD","price":4990,"appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138","isUpgraded":false,"storefront":"USA"}"#

  static let edits: [(String, String)] = [
    ("", ""),
    (#""price":4990"#, #""price":4995"#),
    (#""currency":"USD""#, #""currency":"XYZ""#),
    (#""purchaseDate":1764000000000"#, #""purchaseDate":1764000000000.7297"#),
    (#""purchaseDate":1764000000000"#, #""purchaseDate":"1764000000000""#),
    (#""transactionId":"2000000000000123""#, #""transactionId":2000000000000123"#),
    (#""productId":"com.acme.pro.monthly""#, #""productId":"com.acme.pro\/monthly""#),
    (#""isUpgraded":false"#, #""isUpgraded":"true""#),
    (#""isUpgraded":false"#, #""isUpgraded":1"#),
    (#""storefront":"USA""#, #""commitmentInfo":{"billingPeriodNumber":1,"x":[1,2,{"y":null}]}"#),
    (#""storefront":"USA""#, #""commitmentInfo":{"billingPeriodNumber":1,,}"#),
    (
      #""environment":"Production""#,
      #""environment":"Sandbox","revocationDate":1764100000000,"revocationType":"REFUND_PRORATED","revocationPercentage":50000,"revocationReason":1"#
    ),
    (#""originalTransactionId":"2000000000000100","#, ""),
    (#""originalTransactionId":"2000000000000100""#, #""originalTransactionId":"""#),
    (#""type":"Auto-Renewable Subscription""#, #""type":true"#),
  ]

  static let extraLines: [String] = [
    base + " ",
    base + "x",
    String(base.dropLast()),
    #"{"data":{"signedTransactionInfo":"a.b.c"},"originalTransactionId":"1","transactionId":"1","productId":"p","purchaseDate":1,"price":0,"currency":"USD"}"#,
    #"{"notificationType":"TEST","originalTransactionId":"1","transactionId":"1","productId":"p","purchaseDate":1,"price":0,"currency":"USD"}"#,
    #"{"originalTransactionId":"1","transactionId":"1","productId":"p","purchaseDate":1,"price":0,"currency":"USD","offerType":1,"offerDiscountType":"PAY_UP_FRONT"}"#,
    #"{"originalTransactionId":"1","transactionId":"1","productId":"p","purchaseDate":1,"price":0,"currency":"USD","productId":"q"}"#,
  ]

  static let variations: [String] =
    edits.map { $0.0.isEmpty ? base : base.replacingOccurrences(of: $0.0, with: $0.1) } + extraLines

  @Test(arguments: variations)
  func fastPathAgreesWithFullPath(line: String) {
    let full = Self.fullPath(line)
    if let fast = Self.fastPath(line) {
      #expect(fast == full, "\(line)")
    }
  }

  @Test func fastPathTakesThePlainLine() {
    #expect(Self.fastPath(Self.base) != nil)
    #expect(
      Self.fastPath(Self.base.replacingOccurrences(of: #""price":4990"#, with: #""price":4995"#)) == nil)
  }

  @Test func fastPathAgreesOnAWholeDemoWorld() throws {
    let dir = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var options = DemoOptions()
    options.users = 400
    options.seed = 11
    _ = try DemoWorld.generate(options, into: dir.path)
    let text = try String(
      contentsOf: dir.appendingPathComponent("exports/apple/transactions.jsonl"), encoding: .utf8)
    var fastCount = 0
    var lines = 0
    for line in text.split(separator: "\n") {
      lines += 1
      let full = Self.fullPath(String(line))
      if let fast = Self.fastPath(String(line)) {
        fastCount += 1
        #expect(fast == full)
      }
    }
    // Plain lines take the fast path; JWS and malformed ones do not.
    #expect(fastCount > lines * 8 / 10)
    #expect(fastCount < lines)
  }
}
