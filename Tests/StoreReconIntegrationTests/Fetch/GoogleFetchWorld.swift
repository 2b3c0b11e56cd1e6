import Foundation
import StoreReconCore
import StoreReconFetch
import StoreReconPlatform
import StoreReconTestSupport
import StoreReconSettings

/// A Google fetch against the loopback server: a folder with the service account, the server's TLS
/// certificate and the `fetch.into` folder, and the config that points the fetch at the server.
final class GoogleFetchWorld {
  let directory: URL
  let account: ServiceAccountFixture
  let certificate: TestCertificate
  let server: GoogleAPIServer
  var into: URL { directory.appendingPathComponent("fetched") }

  /// The server and the keys in `directory` (a new folder when nil).
  init(directory: URL? = nil) throws {
    self.directory = try directory ?? Binary.temporaryDirectory()
    account = try ServiceAccountFixture(in: self.directory)
    certificate = try TestCertificate(in: self.directory)
    server = try GoogleAPIServer(account: account, certificate: certificate)
  }

  /// The config's `fetch` object for this server (`into`, `caFile` and the key file relative to the
  /// folder, as a user writes them).
  func fetchObject(google: [String: Any] = [:]) -> [String: Any] {
    var settings: [String: Any] = [
      "serviceAccountFile": account.keyFile.lastPathComponent, "packageName": GoogleAPIServer.packageName,
      "bucket": GoogleAPIServer.bucket,
    ]
    for (key, value) in google { settings[key] = value }
    return [
      "into": "fetched", "caFile": URL(fileURLWithPath: certificate.certificate).lastPathComponent,
      "playDeveloperURL": server.baseURL, "storageURL": server.baseURL, "oauthTokenURL": server.tokenURL,
      "requestsPerSecond": 1000.0, "google": settings,
    ]
  }

  /// `storerecon fetch google` in-process, knowing the Play keys `known`; the progress lines come back.
  func fetch(
    known: [String], google: [String: Any] = [:], environment: [String: String] = [:],
    withoutKeyFile: Bool = false
  ) throws(FetchError) -> ([FetchReport], [String]) {
    var object = fetchObject(google: google)
    if withoutKeyFile, var settings = object["google"] as? [String: Any] {
      settings["serviceAccountFile"] = nil
      object["google"] = settings
    }
    guard let config = try FetchConfig.parse(object, baseDirectory: directory.path, name: "t")
    else { throw FetchError(.config, "no fetch object") }
    var keys = KnownKeys()
    for key in known { keys.add(key, for: .play) }
    let progress = MemoryProgress()
    let reports = try FetchRun.execute(
      ["google"], config: config, known: keys, asOf: CivilDate(year: 2026, month: 11, day: 29),
      progress: progress, environment: environment)
    return (reports, progress.lines)
  }

  /// The text of a fetched file (relative to `fetch.into`), or nil.
  func fetched(_ relative: String) -> String? {
    try? String(contentsOf: into.appendingPathComponent(relative), encoding: .utf8)
  }

  /// The JSON objects of a fetched JSON Lines file.
  func lines(_ relative: String) -> [[String: Any]] {
    (fetched(relative) ?? "").split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  /// Every file under `fetch.into`, relative paths, sorted (temporary files included: none may be left),
  /// except the folder's `.lock`, which every fetch keeps and locks.
  func files() -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: into.path) else { return [] }
    var out: [String] = []
    while let path = walker.nextObject() as? String {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(
        atPath: into.appendingPathComponent(path).path, isDirectory: &isDirectory),
        !isDirectory.boolValue, path != ".lock"
      {
        out.append(path)
      }
    }
    return out.sorted()
  }

  /// The access tokens the server issued.
  func issuedTokens() -> [String] {
    let text =
      (try? String(contentsOf: server.directory.appendingPathComponent("issued.txt"), encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init)
  }

  /// Secrets found in `texts` and in every file under `fetch.into`: the private key's lines and the access
  /// tokens issued (each named by what it is, never quoted).
  func leaks(in texts: [String]) -> [String] {
    var haystacks = texts
    for file in files() { haystacks.append(fetched(file) ?? "") }
    var found: [String] = []
    for (index, line) in account.privateKeyLines.enumerated()
    where haystacks.contains(where: { $0.contains(line) }) {
      found.append("private key line \(index)")
    }
    for (index, token) in issuedTokens().enumerated() where haystacks.contains(where: { $0.contains(token) })
    {
      found.append("access token \(index)")
    }
    return found
  }

  func remove() {
    server.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  /// A `SubscriptionPurchaseV2` as Google answers it (no `purchaseToken`).
  static func resource(
    state: String, expiry: String, order: String, product: String = "pro", basePlan: String = "monthly",
    linked: String? = nil, account: String = "u0000001"
  ) -> [String: Any] {
    var resource: [String: Any] = [
      "kind": "androidpublisher#subscriptionPurchaseV2", "regionCode": "DE",
      "startTime": "2026-09-01T10:00:00Z",
      "subscriptionState": state, "acknowledgementState": "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED",
      "externalAccountIdentifiers": ["obfuscatedExternalAccountId": account],
      "lineItems": [
        [
          "productId": product, "expiryTime": expiry, "latestSuccessfulOrderId": order,
          "autoRenewingPlan": [
            "autoRenewEnabled": true,
            "recurringPrice": ["currencyCode": "EUR", "units": "4", "nanos": 990_000_000],
          ],
          "offerDetails": ["basePlanId": basePlan],
        ]
      ],
    ]
    if let linked { resource["linkedPurchaseToken"] = linked }
    return resource
  }

  /// A `VoidedPurchase` as Google lists it.
  static func voided(token: String, order: String, voidedAt: Int64) -> [String: Any] {
    [
      "kind": "androidpublisher#voidedPurchase", "purchaseToken": token, "orderId": order,
      "purchaseTimeMillis": String(voidedAt - 86_400_000 * 3), "voidedTimeMillis": String(voidedAt),
      "voidedSource": 0, "voidedReason": 1,
    ]
  }
}
