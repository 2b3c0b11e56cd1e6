import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPostgres

/// No output leaks a secret: a run against a password-protected database that mails through an SMTP
/// server asking for a password, and the failures of a wrong password of each, are grepped for both
/// passwords: every file written (workbooks unzipped), stdout and stderr, the e-mail as received and
/// decoded, the run history in the database.
@Suite(
  .serialized, .enabled(if: TestDatabase.passwordAvailable, TestDatabase.passwordSkipMessage),
  .enabled(if: SMTPSink.python != nil, SMTPSink.unavailable))
struct SecretLeakTests {
  static let smtpPassword = "smtp-S3cret-of-the-test-7f3a9"

  /// The text of every file under `folder`; a `.xlsx`'s parts unzipped.
  static func contents(under folder: String) throws -> [(String, [UInt8])] {
    var out: [(String, [UInt8])] = []
    for entry in try FileManager.default.subpathsOfDirectory(atPath: folder) {
      let path = folder + "/" + entry
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
      else { continue }
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      out.append((entry, bytes))
      if entry.hasSuffix(".xlsx") { out.append((entry + " (unzipped)", try unzipped(bytes))) }
    }
    return out
  }

  /// Every part of a zip archive, concatenated.
  static func unzipped(_ zip: [UInt8]) throws -> [UInt8] {
    let script =
      "import io,sys,zipfile; z=zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read())); "
      + "sys.stdout.buffer.write(b''.join(z.read(n) for n in z.namelist()))"
    return try Tool.run("/usr/bin/env", ["python3", "-c", script], input: zip)
  }

  static func leaks(_ haystack: [(String, [UInt8])], secrets: [String]) -> [String] {
    var found: [String] = []
    for (name, bytes) in haystack {
      for secret in secrets where !secret.isEmpty {
        let needle = Array(secret.utf8)
        if bytes.count >= needle.count,
          (0...(bytes.count - needle.count)).contains(where: {
            bytes[$0..<($0 + needle.count)].elementsEqual(needle)
          })
        {
          found.append("\(name) holds a secret")
        }
      }
    }
    return found
  }

  @Test func noOutputHoldsTheDatabaseOrSMTPPassword() throws {
    let pgPassword = try #require(TestDatabase.password)
    let base = try #require(TestDatabase.passwordURL)
    let admin = try PostgresConnection.connect(TestDatabase.url ?? "")
    let name = "t_leak_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
    try admin.execute("CREATE DATABASE \(name) OWNER storerecon_pw")
    defer { TestDatabase.drop(String(name)) }
    var components = try #require(URLComponents(string: base))
    components.path = "/" + name
    let url = try #require(components.string)

    let sink = try SMTPSink(user: "recon", password: Self.smtpPassword)
    defer { sink.stop() }
    let world = try RunWorld(extra: [
      "mail": [
        "from": "recon@acme.example", "to": ["finance@acme.example"], "smtp": sink.url, "tls": "none",
        "username": "recon", "passwordEnv": "STORERECON_TEST_SMTP_PASSWORD",
      ]
    ])
    defer { world.remove() }
    let secrets: [String: String] = [
      "PGPASSWORD": pgPassword, "STORERECON_TEST_SMTP_PASSWORD": Self.smtpPassword,
    ]
    var outputs: [(String, [UInt8])] = []
    func run(_ label: String, _ args: [String], _ env: [String: String] = secrets, expect status: Int32)
      throws
    {
      let out = try Binary.run(args, in: Binary.packageRoot, environment: env.mapValues { Optional($0) })
      #expect(out.status == status, "\(label): \(out.stderr)")
      outputs.append(("\(label) stdout", Array(out.stdout.utf8)))
      outputs.append(("\(label) stderr", Array(out.stderr.utf8)))
    }
    try run("db init", ["db", "init", "--database", url], expect: 0)
    try run(
      "db load", ["db", "load", "--database", url, world.directory.appendingPathComponent("app").path],
      expect: 0)
    let runArgs = [
      "run", "--config", world.config.path, "--date", "2026-11-29", "--out", world.out.path, "--database",
      url,
    ]
    try run("run --mail", runArgs + ["--mail"], expect: 0)
    try run(
      "mail --dry-run", ["mail", "--config", world.config.path, "--out", world.out.path, "--dry-run"],
      expect: 0)
    // Wrong passwords: one line each, naming no password (not the wrong one either).
    var wrongDatabase = secrets
    wrongDatabase["PGPASSWORD"] = "wrong-" + pgPassword
    try run("run, wrong database password", runArgs + ["--no-history"], wrongDatabase, expect: 77)
    var wrongSMTP = secrets
    wrongSMTP["STORERECON_TEST_SMTP_PASSWORD"] = "wrong-" + Self.smtpPassword
    try run(
      "mail, wrong SMTP password", ["mail", "--config", world.config.path, "--out", world.out.path],
      wrongSMTP, expect: 77)

    let messages = try sink.received()
    #expect(messages.count == 1)
    for (index, message) in messages.enumerated() {
      outputs.append(("e-mail \(index) as received", message.raw))
      outputs.append(("e-mail \(index) text", Array(message.string("text").utf8)))
      outputs.append(("e-mail \(index) html", Array(message.string("html").utf8)))
      for attachment in message.attachments {
        let decoded = [UInt8](Data(base64Encoded: attachment["base64"] as? String ?? "") ?? Data())
        outputs.append(("e-mail \(index) attachment (unzipped)", try Self.unzipped(decoded)))
      }
    }
    let files = try Self.contents(under: world.out.path)
    #expect(files.contains { $0.0 == "message.eml" })
    #expect(files.contains { $0.0 == "manifest.json" })
    outputs += files
    let history = try PostgresConnection.connect(TestDatabase.url(database: String(name))).execute(
      "SELECT string_agg(options::text || inputs::text, ' ') FROM storerecon_runs")
    outputs.append(("storerecon_runs", Array((history.value(0, 0) ?? "").utf8)))
    #expect(outputs.count > 20)
    let all = Array(secrets.values) + ["wrong-" + pgPassword, "wrong-" + Self.smtpPassword]
    #expect(Self.leaks(outputs, secrets: all) == [])
  }
}
