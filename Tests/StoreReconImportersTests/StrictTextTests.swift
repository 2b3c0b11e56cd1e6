import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters

/// Invalid UTF-8, NUL, lone surrogates and repeated member names: each line rejected at its line with
/// the reason, on the sequential reader and on the chunked one the run uses, the good lines unchanged.
@Suite struct StrictTextTests {
  static func appleLine(_ id: String, product: [UInt8] = Array("com.acme.pro".utf8), extra: String = "")
    -> [UInt8]
  {
    Array(#"{"transactionId":"\#(id)","originalTransactionId":"\#(id)","productId":""#.utf8) + product
      + Array(
        #"","purchaseDate":1698148900000,"type":"Non-Consumable","price":1990,"currency":"USD"\#(extra)}"#
          .utf8)
  }

  static let lines: [[UInt8]] = [
    appleLine("1"),
    appleLine("2", product: [0x63, 0xE9, 0x64]),  // Latin-1 é
    appleLine("3", product: [0x61, 0x00, 0x62]),  // NUL
    appleLine("4", extra: #","environment":"Sandbox","environment":"Production""#),
    appleLine("5", product: Array(#"a\ud800b"#.utf8)),
    appleLine("6", product: Array("caf\u{e9}".utf8)),  // valid UTF-8 é
    appleLine("7", product: [0xED, 0xA0, 0x80]),  // a UTF-8-encoded surrogate
  ]

  static let reasons = [
    "invalid UTF-8 at byte 63", "NUL byte at byte 63",
    #"not valid JSON: the member name "environment" appears twice in an object at byte 183"#,
    #"not valid JSON: a lone surrogate \uD800 in a string at byte 69"#, "invalid UTF-8 at byte 62",
  ]

  func file() throws -> (TempDir, String) {
    let dir = try TempDir()
    var bytes: [UInt8] = []
    for line in Self.lines { bytes += line + [0x0A] }
    return (dir, try dir.write("apple.jsonl", bytes: bytes))
  }

  @Test func theSequentialReaderRejectsEachLineWithItsReason() throws {
    let (dir, path) = try file()
    _ = dir
    let result = try runImporter(
      AppStoreTransactionImporter(verifier: JWSVerifier(mode: .off)), path, name: "apple.jsonl")
    #expect(result.counts == InputCounts(read: 7, accepted: 2, rejected: 5))
    #expect(result.rows.map(\.transactionId) == ["1", "6"])
    #expect(result.rows.map(\.productId) == ["com.acme.pro", "café"])
    #expect(result.rejects.map(\.line) == [2, 3, 4, 5, 7])
    #expect(result.rejects.map(\.reason) == Self.reasons)
  }

  @Test(arguments: [1, 2])
  func theChunkedReaderRejectsTheSameLines(threads: Int) throws {
    let (dir, path) = try file()
    _ = dir
    let sink = RejectList()
    let builder = LedgerBuilder()
    let result = try AppStoreTransactionImporter(verifier: JWSVerifier(mode: .off)).read(
      path: path, displayName: "apple.jsonl", rejects: sink, into: builder, chunkBytes: 400, threads: threads)
    #expect(result.counts == InputCounts(read: 7, accepted: 2, rejected: 5))
    #expect(sink.rejects.map(\.line) == [2, 3, 4, 5, 7])
    #expect(sink.rejects.map(\.reason) == Self.reasons)
  }

  @Test func aCSVRowInLatin1OrWithNULIsRejected() throws {
    let dir = try TempDir()
    let header = Array(PlaySalesReportImporterTests.header.utf8) + [0x0A]
    var good = PlaySalesReportImporterTests.row()
    var bytes = header + Array(good.utf8) + [0x0A]
    good = good.replacingOccurrences(of: "GPA.", with: "GPX.")
    bytes += Array(good.utf8).map { $0 == 0x58 ? 0xC9 : $0 } + [0x0A]  // 'X' → a lone 0xC9
    bytes += Array(PlaySalesReportImporterTests.row().utf8).map { $0 == 0x2E ? 0x00 : $0 } + [0x0A]
    let path = try dir.write("salesreport_202401.csv", bytes: bytes)
    let result = try runImporter(PlaySalesReportImporter(), path, name: "salesreport_202401.csv")
    #expect(result.counts == InputCounts(read: 3, accepted: 1, rejected: 2))
    #expect(result.rejects.map(\.line) == [3, 4])
    #expect(result.rejects.allSatisfy { $0.reason.hasPrefix("not valid CSV: ") })
    #expect(result.rejects.first?.reason.contains("invalid UTF-8 at byte") == true)
    #expect(result.rejects.last?.reason.contains("NUL byte at byte") == true)
  }
}

extension StrictTextTests {
  @Test func aPlayRowChargedBefore2008OrFarAfterTheReportDateIsRejected() throws {
    let dir = try TempDir()
    let rows = [
      PlaySalesReportImporterTests.row(),
      PlaySalesReportImporterTests.row(timestamp: "-1704112948"),
      PlaySalesReportImporterTests.row(timestamp: "1000"),
      PlaySalesReportImporterTests.row(date: "1999-12-31", timestamp: ""),
      PlaySalesReportImporterTests.row(timestamp: "4102444800"),
    ]
    let text = ([PlaySalesReportImporterTests.header] + rows).joined(separator: "\n") + "\n"
    let path = try dir.write("salesreport_202401.csv", text)
    let result = try runImporter(PlaySalesReportImporter(), path, name: "salesreport_202401.csv")
    #expect(result.counts == InputCounts(read: 5, accepted: 1, rejected: 4))
    #expect(
      result.rejects.map(\.reason) == [
        "Order Charged Timestamp 1916-01-01T11:17:32.000Z is before 2008-01-01 (no store sold in-app purchases then)",
        "Order Charged Timestamp 1970-01-01T00:16:40.000Z is before 2008-01-01 (no store sold in-app purchases then)",
        "Order Charged Date 1999-12-31T00:00:00.000Z is before 2008-01-01 (no store sold in-app purchases then)",
        "Order Charged Timestamp 2100-01-01T00:00:00.000Z is more than 10 years after the report date",
      ])
  }
}
