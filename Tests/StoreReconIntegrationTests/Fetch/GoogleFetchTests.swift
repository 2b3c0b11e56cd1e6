import Foundation
import Testing
import StoreReconCore
import StoreReconFetch
import StoreReconTestSupport
import StoreReconSettings

/// `fetch google` against the loopback server (google_api_server.py): the RS256 JWT-bearer grant the
/// server verifies, subscriptionsv2 with linked tokens and an unknown token, voided purchases and
/// Cloud Storage listings in two pages, report downloads checked by MD5, and the failures: a 429, an
/// expired access token, a truncated body, an HTML page, a wrong checksum, a refused key.
@Suite(.serialized, .enabled(if: GoogleAPIServer.available, GoogleAPIServer.unavailable))
struct GoogleFetchTests {
  static let tokenA = "aaaaaaaaaaaaaaaaaaaaaaaa.AO-J1OtokenA"
  static let tokenB = "bbbbbbbbbbbbbbbbbbbbbbbb.AO-J1OtokenB"
  static let tokenC = "cccccccccccccccccccccccc.AO-J1OtokenC"
  static let unknownToken = "dddddddddddddddddddddddd.AO-J1OnotThere"
  static let order = "GPA.3352-0306-9721-14048"

  /// A server with three resources (A links to B, which expired long ago), three voids and three reports.
  static func world() throws -> GoogleFetchWorld {
    let world = try GoogleFetchWorld()
    try world.server.write(
      "subscriptions.json",
      json: [
        tokenA: GoogleFetchWorld.resource(
          state: "SUBSCRIPTION_STATE_ACTIVE", expiry: "2026-12-20T10:00:00Z", order: order + "..2",
          linked: tokenB),
        tokenB: GoogleFetchWorld.resource(
          state: "SUBSCRIPTION_STATE_EXPIRED", expiry: "2026-03-01T10:00:00Z",
          order: "GPA.1111-2222-3333-44444"),
        tokenC: GoogleFetchWorld.resource(
          state: "SUBSCRIPTION_STATE_CANCELED", expiry: "2026-12-05T10:00:00Z",
          order: "GPA.5555-6666-7777-88888",
          account: "u0000002"),
      ])
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    try world.server.write(
      "voided.json",
      json: [
        GoogleFetchWorld.voided(token: tokenA, order: order + "..0", voidedAt: now - 5 * 86_400_000),
        GoogleFetchWorld.voided(token: tokenA, order: order + "..1", voidedAt: now - 4 * 86_400_000),
        GoogleFetchWorld.voided(token: tokenC, order: "GPA.5555-6666-7777-88888", voidedAt: now - 86_400_000),
      ])
    try world.server.putObject("sales/salesreport_202610.zip", Data("october sales".utf8))
    try world.server.putObject("sales/salesreport_202611.zip", Data("november sales".utf8))
    try world.server.putObject("earnings/earnings_202610_0123456789-0.zip", Data("october earnings".utf8))
    return world
  }

  static let known = [tokenA, tokenC, unknownToken, order]

  @Test func fetchesEverythingThroughTheVerifiedGrant() throws {
    let world = try Self.world()
    defer { world.remove() }
    let (reports, progress) = try world.fetch(known: Self.known)
    #expect(reports.count == 1 && reports[0].source == "google")

    // One access token, from an assertion whose RS256 signature and claims the server verified.
    let grants = try world.server.grants()
    #expect(grants.count == 1 && grants.first?["verified"] as? Bool == true, "\(grants)")

    // One resource per token: A and C as known, B through A's linkedPurchaseToken; the order id is not a
    // token; the unknown token is recorded, not fatal.
    let subscriptions = world.lines("play/subscriptions.jsonl")
    #expect(
      subscriptions.map { $0["purchaseToken"] as? String ?? "" } == [Self.tokenA, Self.tokenB, Self.tokenC])
    #expect(subscriptions.first?["linkedPurchaseToken"] as? String == Self.tokenB)
    #expect(try world.server.requests("subscriptionsv2").count == 4)
    #expect(try world.server.requests(Self.order).isEmpty)
    let state = try #require(world.fetched("state.json"))
    #expect(state.contains(Self.unknownToken))
    #expect(progress.contains { $0.contains("1 purchase tokens unknown to Google") }, "\(progress)")

    // The voids in two pages, type=1, from 30 days back at most.
    let voidedRequests = try world.server.requests("voidedpurchases")
    #expect(voidedRequests.count == 2)
    #expect(voidedRequests.allSatisfy { ($0["query"] as? [String: String])?["type"] == "1" })
    #expect((voidedRequests.last?["query"] as? [String: String])?["token"] != nil)
    let voided = world.lines("play/voided.jsonl")
    #expect(voided.map { $0["orderId"] as? String ?? "" }.count == 3)
    #expect(voided.allSatisfy { $0["voidedTimeMillis"] is String && $0["purchaseToken"] is String })

    // Reports: sales/ listed in two pages, earnings/ (one object) in one; each object downloaded once,
    // under its own name.
    let listings = try world.server.log().filter { ($0["path"] as? String)?.hasSuffix("/o") == true }
    #expect(
      listings.map { ($0["query"] as? [String: String])?["prefix"] ?? "" } == [
        "sales/", "sales/", "earnings/",
      ])
    #expect(world.fetched("play/sales/salesreport_202611.zip") == "november sales")
    #expect(world.fetched("play/sales/salesreport_202610.zip") == "october sales")
    #expect(world.fetched("play/earnings/earnings_202610_0123456789-0.zip") == "october earnings")
    #expect(
      world.files() == [
        "play/earnings/earnings_202610_0123456789-0.zip", "play/sales/salesreport_202610.zip",
        "play/sales/salesreport_202611.zip", "play/subscriptions.jsonl", "play/voided.jsonl", "state.json",
      ])
    #expect(world.leaks(in: progress).isEmpty, "\(world.leaks(in: progress))")
  }

  @Test func aSecondFetchAsksOnlyForWhatMayHaveChanged() throws {
    let world = try Self.world()
    defer { world.remove() }
    _ = try world.fetch(known: Self.known)
    let firstVoided = try world.server.requests("voidedpurchases")
    let before = try world.server.log().count

    // November's sales report is rewritten (a new generation); a void arrives; C's state changes.
    try world.server.putObject("sales/salesreport_202611.zip", Data("november sales, updated".utf8))
    try world.server.write("generations.json", json: ["sales/salesreport_202611.zip": "2"])
    _ = try world.fetch(known: Self.known)
    let second = Array(try world.server.log().dropFirst(before))
    let paths = second.map { $0["path"] as? String ?? "" }

    // B expired long ago: settled, kept, not asked again; A, C and the unknown token are.
    #expect(!paths.contains { $0.hasSuffix(Self.tokenB) })
    #expect(paths.filter { $0.contains("subscriptionsv2") }.count == 3)
    #expect(world.lines("play/subscriptions.jsonl").count == 3)
    // Only the changed report is downloaded again.
    let media = second.filter { ($0["query"] as? [String: String])?["alt"] == "media" }
    #expect(media.map { $0["path"] as? String ?? "" }.allSatisfy { $0.hasSuffix("salesreport_202611.zip") })
    #expect(media.count == 1)
    #expect(world.fetched("play/sales/salesreport_202611.zip") == "november sales, updated")
    // The voids continue from an hour before the first list's end.
    let firstEnd = Int64((firstVoided.first?["query"] as? [String: String])?["endTime"] ?? "") ?? 0
    let secondStart = second.first { ($0["path"] as? String ?? "").hasSuffix("voidedpurchases") }
    #expect(Int64((secondStart?["query"] as? [String: String])?["startTime"] ?? "") == firstEnd - 3_600_000)
    #expect(world.lines("play/voided.jsonl").count == 3)
  }

  @Test func a429IsRetriedAndAnExpiredTokenRenewed() throws {
    let world = try Self.world()
    defer { world.remove() }
    try world.server.faults(["rateLimitOnce": ["subscriptionsv2"], "expireTokenAfter": 3])
    _ = try world.fetch(known: Self.known)
    let statuses = try world.server.requests("subscriptionsv2").map { $0["status"] as? Int ?? 0 }
    #expect(statuses.first == 429)
    #expect(statuses.contains(401))
    // Each 401 was followed by a new, verified grant, and the fetch completed.
    let grants = try world.server.grants()
    #expect(grants.count >= 2 && grants.allSatisfy { $0["verified"] as? Bool == true })
    #expect(world.lines("play/subscriptions.jsonl").count == 3)
    #expect(world.files().contains("play/earnings/earnings_202610_0123456789-0.zip"))
  }

  /// Runs the fetch expecting `kind`, and returns the message.
  func failure(_ world: GoogleFetchWorld, _ kind: FailureKind) throws -> String {
    do {
      _ = try world.fetch(known: Self.known)
    } catch {
      #expect(error.kind == kind, "\(error.message)")
      #expect(world.leaks(in: [error.message]).isEmpty)
      return error.message
    }
    Issue.record("the fetch did not fail")
    return ""
  }

  @Test func aTruncatedBodyIsRejectedAndNothingWrittenFromIt() throws {
    let world = try Self.world()
    defer { world.remove() }
    try world.server.faults(["truncate": [Self.tokenC]])
    let message = try failure(world, .dataError)
    let path =
      "GET /androidpublisher/v3/applications/com.acme.app/purchases/subscriptionsv2/tokens/\(Self.tokenC)"
    #expect(message.hasPrefix(path + ": the answer is not a whole JSON object"), "\(message)")
    // The steps before (the reports, the voids) completed; the subscriptions were never written, nor a
    // temporary file.
    #expect(
      world.files() == [
        "play/earnings/earnings_202610_0123456789-0.zip", "play/sales/salesreport_202610.zip",
        "play/sales/salesreport_202611.zip", "play/voided.jsonl", "state.json",
      ])
  }

  @Test func anHTMLErrorPageIsRejected() throws {
    let world = try Self.world()
    defer { world.remove() }
    try world.server.faults(["html": ["/storage/v1/b/"]])
    let message = try failure(world, .dataError)
    #expect(message == "GET /storage/v1/b/\(GoogleAPIServer.bucket)/o: the answer is an HTML page, not JSON")
    #expect(!world.files().contains { $0.hasPrefix("play/sales") || $0.hasPrefix("play/earnings") })
  }

  @Test func aDownloadThatDoesNotMatchItsMD5IsNotWritten() throws {
    let world = try Self.world()
    defer { world.remove() }
    try world.server.faults(["badMd5": ["sales/salesreport_202611.zip"]])
    let message = try failure(world, .dataError)
    #expect(
      message.contains("/o/sales%2Fsalesreport_202611.zip: the 14 bytes received do not match"), "\(message)")
    // The object before it was written and recorded; a rerun without the fault fetches only the rest.
    #expect(world.files().contains("play/sales/salesreport_202610.zip"))
    #expect(!world.files().contains("play/sales/salesreport_202611.zip"))
    try world.server.faults([:])
    let before = try world.server.log().count
    _ = try world.fetch(known: Self.known)
    let media = try world.server.log().dropFirst(before).filter {
      ($0["query"] as? [String: String])?["alt"] == "media"
    }
    #expect(media.count == 2)
    #expect(world.fetched("play/sales/salesreport_202611.zip") == "november sales")
  }

  @Test func aRefusedOrUnverifiableKeyIsAPermissionError() throws {
    let world = try Self.world()
    defer { world.remove() }
    // Every API call answers 401: one new token is tried, then the fetch stops (77), nothing written.
    try world.server.faults(["alwaysUnauthorized": true])
    let refused = try failure(world, .noPermission)
    #expect(refused.contains("HTTP 401"), "\(refused)")
    #expect(try world.server.grants().count == 2)
    #expect(try world.server.requests("/storage/v1/b/").count == 2)
    #expect(!world.files().contains { $0.hasPrefix("play/") })

    // A key the server does not know (another key pair in the file): the signature does not verify.
    try world.server.faults([:])
    let otherFolder = world.directory.appendingPathComponent("other", isDirectory: true)
    try FileManager.default.createDirectory(at: otherFolder, withIntermediateDirectories: true)
    let other = try ServiceAccountFixture(in: otherFolder)
    let message: String
    do {
      _ = try world.fetch(known: Self.known, google: ["serviceAccountFile": "other/service-account.json"])
      message = ""
    } catch {
      message = error.message
      #expect(error.kind == .noPermission)
    }
    #expect(
      message.hasPrefix("POST /token: HTTP 400 — the service account was refused (invalid_grant)"),
      "\(message)")
    let last = try world.server.grants().last
    #expect(last?["refused"] as? String == "signature does not verify")
    for line in other.privateKeyLines { #expect(!message.contains(line)) }
  }

  @Test func theEnvironmentVariableNamesTheKeyFile() throws {
    let world = try Self.world()
    defer { world.remove() }
    let variable = FetchConfig.Google.keyFileVariable
    do {
      _ = try world.fetch(known: Self.known, withoutKeyFile: true)
      Issue.record("a fetch without a key file ran")
    } catch {
      #expect(error.kind == .config)
      #expect(error.message.contains("fetch.google.serviceAccountFile (or \(variable))"), "\(error.message)")
    }
    #expect(try world.server.log().isEmpty)
    _ = try world.fetch(
      known: Self.known, environment: [variable: world.account.keyFile.path], withoutKeyFile: true)
    #expect(try world.server.grants().first?["verified"] as? Bool == true)
    #expect(world.lines("play/subscriptions.jsonl").count == 3)
  }
}
