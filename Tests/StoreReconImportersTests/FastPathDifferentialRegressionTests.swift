import Testing
import StoreReconTestSupport

/// The mismatches the differential tests and fuzzers found, each kept as the line that showed it.
@Suite struct FastPathDifferentialRegressionTests {
  static let plain =
    #"{"originalTransactionId":"2000000000000100","transactionId":"2000000000000123","productId":"pro","#
    + #""purchaseDate":1764000000000,"price":4990,"currency":"USD","storefront":"USA""#

  /// The fast path looked for `signedTransactionInfo` (21 bytes) among the 22-byte keys, and for
  /// `signedPayload` and `notificationType` only among lengths no known key has: a line holding a
  /// wrapper beside plain fields was read as a plain transaction, its JWS never unwrapped nor verified.
  @Test(arguments: [
    #","signedTransactionInfo":"a.b.c"}"#, #","signedTransactionInfo":{}}"#, #","signedPayload":"a.b.c"}"#,
    #","notificationType":"TEST"}"#,
  ])
  func aLineWithAWrapperIsLeftToTheFullPath(tail: String) {
    #expect(FastPathCheck.appStore(Array((Self.plain + tail).utf8)) == .declined)
  }

  /// A two-letter storefront: the full path packs it as alpha-2, the fast path read it as alpha-3 (0).
  @Test(arguments: ["US", "de", "USA", "XKS", "ZZ", "U", ""])
  func aStorefrontIsReadAsTheFullPathReadsIt(storefront: String) {
    let line = Self.plain.replacingOccurrences(of: #""USA""#, with: "\"\(storefront)\"") + "}"
    #expect(FastPathCheck.appStore(Array(line.utf8)) == .agreed)
  }

  /// Bytes that are not UTF-8 in a text field: the full path reads them as U+FFFD, so two ids that
  /// differ only there are one id to it; the fast path must not keep them apart.
  @Test func idsThatAreNotUTF8AreReadAsTheFullPathReadsThem() {
    func line(_ id: [UInt8], _ tx: String, product: [UInt8] = Array("pro".utf8)) -> [UInt8] {
      Array(#"{"originalTransactionId":""#.utf8) + id
        + Array(#"","transactionId":"\#(tx)","productId":""#.utf8)
        + product + Array(#"","purchaseDate":1764000000000,"price":4990,"currency":"USD"}"#.utf8)
    }
    let lines = [
      line([0x61, 0xFF, 0x62], "1"), line([0x61, 0xFE, 0x62], "2"), line([0x61, 0xC3, 0x62], "3"),
      line(Array("c".utf8), "4", product: [0x70, 0xFF]), line(Array("d".utf8), "5", product: [0x70, 0xC0]),
    ]
    #expect(FastPathCheck.appStoreBatch(lines) == nil)
  }

  @Test func thePlainLineTakesTheFastPath() {
    #expect(FastPathCheck.appStore(Array((Self.plain + "}").utf8)) == .agreed)
  }
}
