import Foundation
import Testing
import StoreReconTestSupport

/// The loopback HTTPS stand-in for Google's OAuth, Play Developer and Cloud Storage APIs:
/// Tests/StoreReconIntegrationTests/Fetch/google_api_server.py, serving the fixtures of ``directory``
/// (subscriptions.json, voided.json, bucket/, faults.json) with the test's certificate, and verifying the
/// service account's RS256 assertion with its public key.
final class GoogleAPIServer {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fetch/google_api_server.py").path
  static let packageName = "com.acme.app"
  static let bucket = "pubsite_prod_rev_01234567890123456789"

  /// Whether python3 and openssl are there (the server and its signature check need both).
  static let available =
    ServiceAccountFixture.available && LoopbackScript.pythonImports("http.server, ssl, hashlib")

  /// Why the Google fetch tests are skipped, printed by Swift Testing.
  static let unavailable: Comment =
    "python3 or /usr/bin/openssl is not installed: Google fetch tests (google_api_server.py) skipped"

  /// The fixture folder the server reads on every request.
  let directory: URL
  let port: Int
  private let process: Process

  /// Starts the server on fixtures in a new folder; `account` is the service account whose assertions
  /// it accepts, `certificate` its TLS certificate.
  init(account: ServiceAccountFixture, certificate: TestCertificate) throws {
    directory = try Binary.temporaryDirectory()
    let portFile = directory.appendingPathComponent("port")
    let arguments = [
      "python3", Self.script, "--dir", directory.path, "--port-file", portFile.path, "--cert",
      certificate.certificate, "--key", certificate.key, "--public-key", account.publicKey.path,
      "--client-email", ServiceAccountFixture.clientEmail, "--package", Self.packageName, "--bucket",
      Self.bucket, "--lifetime", "300",
    ]
    let process = Process()
    self.process = process
    port = try LoopbackScript.start(process, arguments: arguments, portFile: portFile)
  }

  var baseURL: String { "https://127.0.0.1:\(port)" }
  var tokenURL: String { baseURL + "/token" }

  /// Writes a fixture file (JSON) into the folder.
  func write(_ name: String, json: Any) throws {
    let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
    try data.write(to: directory.appendingPathComponent(name))
  }

  /// Puts `bytes` into the bucket as object `name` (`sales/salesreport_202611.zip`).
  func putObject(_ name: String, _ bytes: Data) throws {
    let url = directory.appendingPathComponent("bucket").appendingPathComponent(name)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try bytes.write(to: url)
  }

  /// Sets the failures to inject (faults.json; see the script), replacing the previous ones.
  func faults(_ faults: [String: Any]) throws { try write("faults.json", json: faults) }

  /// Every request the server answered, in order (method, path, query, status, …).
  func log() throws -> [[String: Any]] {
    let url = directory.appendingPathComponent("log.jsonl")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  /// The requests whose path contains `marker`.
  func requests(_ marker: String) throws -> [[String: Any]] {
    try log().filter { ($0["path"] as? String ?? "").contains(marker) }
  }

  /// The token endpoint's requests (each says whether the assertion verified).
  func grants() throws -> [[String: Any]] { try log().filter { $0["path"] as? String == "/token" } }

  func stop() {
    LoopbackScript.stop(process)
    try? FileManager.default.removeItem(at: directory)
  }

  deinit { stop() }
}
