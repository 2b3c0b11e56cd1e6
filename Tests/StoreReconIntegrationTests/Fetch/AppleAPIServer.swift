import Foundation
import Testing
import StoreReconTestSupport
import StoreReconDemo

/// The loopback App Store API of the fetch tests: Fetch/apple_api_server.py (python3 standard library)
/// over TLS with a self-signed certificate, serving the fixtures the test writes and verifying each
/// request's ES256 JWT with the test key's public half.
final class AppleAPIServer {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("apple_api_server.py").path
  static let keyId = "TESTKEY123"
  static let issuerId = "57246542-96fe-1a63-e053-0824d011072a"
  static let bundleId = "com.acme.app"

  /// Whether python3 and openssl are there.
  static let available = TestCertificate.opensslAvailable && LoopbackScript.pythonImports("ssl, http.server")

  static let unavailable: Comment =
    "python3 or /usr/bin/openssl is not installed: App Store fetch tests skipped"

  /// The server's folder: fixtures/ (written by the test), requests.jsonl (written by the server).
  let directory: URL
  let certificate: TestCertificate
  /// The test's App Store Connect key: key.p8 (PKCS#8 PEM) and pub.pem.
  let keyFile: String
  let port: Int
  private let process: Process

  var fixtures: URL { directory.appendingPathComponent("fixtures") }
  var url: String { "https://127.0.0.1:\(port)" }

  /// Starts the server in a new folder with a new certificate and key; `pageSize` transactions per page;
  /// every answer held `latencyMs` milliseconds.
  init(pageSize: Int = 20, latencyMs: Int = 0, prepare: (URL) throws -> Void = { _ in }) throws {
    directory = try Binary.temporaryDirectory()
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
    certificate = try TestCertificate(in: directory)
    keyFile = directory.appendingPathComponent("key.p8").path
    let publicKey = directory.appendingPathComponent("pub.pem").path
    try AppleAPIServer.openssl([
      "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyFile,
    ])
    try AppleAPIServer.openssl(["pkey", "-in", keyFile, "-pubout", "-out", publicKey])
    try prepare(directory.appendingPathComponent("fixtures"))
    let portFile = directory.appendingPathComponent("port")
    let arguments = [
      "python3", Self.script, "--dir", directory.path, "--port-file", portFile.path, "--cert",
      certificate.certificate,
      "--key", certificate.key, "--public-key", publicKey, "--kid", Self.keyId, "--issuer", Self.issuerId,
      "--bid", Self.bundleId, "--page-size", String(pageSize), "--lifetime", "300", "--latency-ms",
      String(latencyMs),
    ]
    process = Process()
    port = try LoopbackScript.start(process, arguments: arguments, portFile: portFile)
  }

  static func openssl(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
  }

  /// The requests logged so far.
  func requests() throws -> [[String: Any]] {
    let file = directory.appendingPathComponent("requests.jsonl")
    guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
    return try text.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
    }
  }

  /// Forgets the logged requests (before a second fetch).
  func clearRequests() {
    try? FileManager.default.removeItem(at: directory.appendingPathComponent("requests.jsonl"))
  }

  /// Writes a fixture file (JSON of `value`) at `path` under fixtures/.
  func write(_ value: Any, to path: String) throws {
    try AppleAPIServer.write(value, to: path, in: fixtures)
  }

  static func write(_ value: Any, to path: String, in fixtures: URL) throws {
    let url = fixtures.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]).write(to: url)
  }

  /// The `fetch` config object for this server, writing into `into`.
  func fetchConfig(into: String = "fetched", vendor: String? = nil) -> [String: Any] {
    var apple: [String: Any] = [
      "keyId": Self.keyId, "issuerId": Self.issuerId, "bundleId": Self.bundleId, "privateKeyFile": keyFile,
    ]
    if let vendor { apple["vendorNumber"] = vendor }
    return [
      "into": into, "caFile": certificate.certificate, "appStoreServerURL": url, "appStoreConnectURL": url,
      "requestsPerSecond": 0, "retries": 2, "timeoutSeconds": 20, "apple": apple,
    ]
  }

  /// A signed transaction (the demo's test chain) of these payload members.
  static func signedTransaction(_ members: [String: Any]) throws -> String {
    DemoSigner.jws([UInt8](try JSONSerialization.data(withJSONObject: members, options: [.sortedKeys])))
  }

  func stop() {
    LoopbackScript.stop(process)
    try? FileManager.default.removeItem(at: directory)
  }

  deinit { stop() }
}
