import Foundation
import Testing
import StoreReconTestSupport

/// A real SMTP server on loopback for the mail tests: Tests/StoreReconIntegrationTests/Mail/smtp_sink.py
/// (aiosmtpd), which saves every message it receives and what Python's email package parsed from it.
final class SMTPSink {
  /// One received message as the sink parsed it.
  struct Received {
    var json: [String: Any]
    var raw: [UInt8]
    func string(_ key: String) -> String { json[key] as? String ?? "" }
    var recipients: [String] { json["rcptTos"] as? [String] ?? [] }
    var attachments: [[String: Any]] { json["attachments"] as? [[String: Any]] ?? [] }
  }

  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Mail/smtp_sink.py").path

  /// A python3 that can import aiosmtpd (Debian's python3-aiosmtpd or a pip install), or `nil`.
  static let python: String? = {
    for candidate in ["/usr/bin/python3", "/usr/local/bin/python3", "python3"] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [candidate, "-c", "import aiosmtpd"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      do {
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus == 0 { return candidate }
      } catch {
        continue
      }
    }
    return nil
  }()

  /// Why the SMTP tests are skipped, printed by Swift Testing.
  static let unavailable: Comment =
    "python3 with aiosmtpd is not installed (apt-get install python3-aiosmtpd): SMTP tests skipped"

  let directory: URL
  let port: Int
  private let process: Process

  /// Starts the sink; with `password`, AUTH as `user`/`password` is required; with `tls`, STARTTLS is
  /// offered and required (or, `implicit`, TLS from the first byte) with a certificate for 127.0.0.1.
  init(user: String? = nil, password: String? = nil, tls: TestCertificate? = nil, implicit: Bool = false)
    throws
  {
    guard let python = Self.python else { throw CocoaError(.featureUnsupported) }
    directory = try Binary.temporaryDirectory()
    let portFile = directory.appendingPathComponent("port")
    process = Process()
    var args = [
      python, Self.script, "--dir", directory.path, "--port-file", portFile.path, "--lifetime", "120",
    ]
    if let user, let password { args += ["--user", user, "--password", password] }
    if let tls {
      args += ["--tls-cert", tls.certificate, "--tls-key", tls.key]
      if implicit { args.append("--implicit") }
    }
    port = try LoopbackScript.start(process, arguments: args, portFile: portFile)
  }

  var url: String { "smtp://127.0.0.1:\(port)" }

  /// Messages received so far, in order.
  func received() throws -> [Received] {
    var out: [Received] = []
    var n = 1
    while FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(n).json").path) {
      let data = try Data(contentsOf: directory.appendingPathComponent("\(n).json"))
      let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
      let raw = try Data(contentsOf: directory.appendingPathComponent("\(n).eml"))
      out.append(Received(json: json, raw: [UInt8](raw)))
      n += 1
    }
    return out
  }

  func stop() {
    LoopbackScript.stop(process)
    try? FileManager.default.removeItem(at: directory)
  }

  deinit { stop() }
}

/// A self-signed certificate for 127.0.0.1 and localhost, made with the openssl command.
struct TestCertificate {
  let certificate: String
  let key: String

  static var opensslAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") }

  init(in directory: URL) throws {
    certificate = directory.appendingPathComponent("cert.pem").path
    key = directory.appendingPathComponent("key.pem").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2",
      "-subj",
      "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
  }
}
