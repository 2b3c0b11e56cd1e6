import Foundation
import Testing
import StoreReconTestSupport

/// Bad answers of the App Store API: each is rejected with the request named (method and path), the
/// documented exit code, and nothing written under a final name.
@Suite(.serialized, .enabled(if: AppleAPIServer.available, AppleAPIServer.unavailable))
struct FetchBadResponseTests {
  /// Fetches customer 1000 from a server answering its history with `fault`; returns the result and the
  /// files under the fetch folder.
  static func fetch(fault: [String: Any]) throws -> (Binary.Output, [String]) {
    let good = try AppleAPIServer.signedTransaction(FetchAppleTests.transaction("1000", 0, daysAgo: 3))
    let server = try AppleAPIServer { fixtures in
      try AppleAPIServer.write(["signedTransactions": [good]], to: "history/1000.json", in: fixtures)
      var rule = fault
      rule["path"] = "/inApps/v2/history/1000"
      rule["times"] = 10
      try AppleAPIServer.write([rule], to: "faults.json", in: fixtures)
    }
    defer { server.stop() }
    let folder = try FetchAppleTests.configFolder(server, keys: ["1000"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = try FetchAppleTests.fetch(folder, ["--quiet"])
    let files = FetchAppleTests.files(folder.appendingPathComponent("fetched")).keys.sorted()
    return (output, files)
  }

  static let named = "GET /inApps/v2/history/1000"

  @Test func anHTMLPageIsADataError() throws {
    let (output, files) = try Self.fetch(fault: [
      "status": 200, "headers": ["Content-Type": "text/html"],
      "body": "<!DOCTYPE html><html><body>Sorry</body></html>",
    ])
    #expect(output.status == 65)
    #expect(output.stderr.contains(Self.named) && output.stderr.contains("an HTML page"), "\(output.stderr)")
    #expect(!files.contains { $0.hasPrefix("apple/transactions") })
    #expect(files.allSatisfy { !$0.contains(".tmp-") })
  }

  @Test func truncatedJSONIsADataError() throws {
    let (output, files) = try Self.fetch(fault: [
      "status": 200, "body": "{\"revision\":\"1\",\"hasMore\":fal",
    ])
    #expect(output.status == 65)
    #expect(output.stderr.contains(Self.named) && output.stderr.contains("not JSON"), "\(output.stderr)")
    #expect(!files.contains { $0.hasPrefix("apple/transactions") })
  }

  @Test func aJWSThatDoesNotParseIsADataError() throws {
    let (output, files) = try Self.fetch(fault: [
      "status": 200,
      "body":
        "{\"revision\":\"1\",\"hasMore\":false,\"signedTransactions\":[\"eyJhbGciOi.bm90IGpzb24.c2ln\"]}",
    ])
    #expect(output.status == 65)
    #expect(
      output.stderr.contains("\(Self.named): signedTransactions[0] is not a signed transaction"),
      "\(output.stderr)")
    #expect(!files.contains { $0.hasPrefix("apple/transactions") })
  }

  @Test func hasMoreWithTheSameRevisionForeverStopsWithADataError() throws {
    // The API answers every page with hasMore and the same revision: asked again, it would answer the
    // same forever. fetch stops at the first repeat, names the request, and exits 65 for cron.
    let (output, files) = try Self.fetch(fault: [
      "status": 200, "body": "{\"revision\":\"7\",\"hasMore\":true,\"signedTransactions\":[]}",
    ])
    #expect(output.status == 65, "\(output.stderr)")
    #expect(
      output.stderr.contains(Self.named) && output.stderr.contains("revision seen before"), "\(output.stderr)"
    )
    #expect(!files.contains { $0.hasPrefix("apple/transactions") })
  }

  @Test func aTruncatedTransferIsRetriedThenUnavailable() throws {
    let (output, files) = try Self.fetch(fault: [
      "status": 200, "body": "{\"revision\":\"1\",\"hasMore\":false,\"signedTransactions\":[]}",
      "truncate": true,
    ])
    #expect(output.status == 75)
    #expect(output.stderr.contains(Self.named) && output.stderr.contains("3 tries"), "\(output.stderr)")
    #expect(!files.contains { $0.hasPrefix("apple/transactions") })
  }

  @Test func aRefusedKeyIsAPermissionError() throws {
    let (output, _) = try Self.fetch(fault: [
      "status": 403, "body": "{\"errorCode\":4030000,\"errorMessage\":\"Forbidden\"}",
    ])
    #expect(output.status == 77)
    #expect(output.stderr.contains("\(Self.named): HTTP 403"), "\(output.stderr)")
    #expect(output.stderr.split(separator: "\n").count == 1)
  }

  @Test func aServerErrorPageAfterTheRetriesIsUnavailable() throws {
    let (output, _) = try Self.fetch(fault: [
      "status": 503, "headers": ["Content-Type": "text/html", "Retry-After": "0"],
      "body": "<html>down</html>",
    ])
    #expect(output.status == 75)
    #expect(output.stderr.contains("\(Self.named): HTTP 503 after 3 tries: an HTML page"), "\(output.stderr)")
  }
}
