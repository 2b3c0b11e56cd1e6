import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconSettings

/// The config's "mail" section: shapes, TLS modes, and that the password never comes from the config.
struct MailSettingsTests {
  static func parse(_ mail: [String: Any]) throws(MailError) -> MailSettings? {
    try MailSettings.parse(mail, baseDirectory: "/etc/storerecon", name: "c.json")
  }

  static var base: [String: Any] {
    ["from": "recon@acme.example", "to": ["a@acme.example"], "smtp": "smtp://mail.acme.example:587"]
  }

  static func with(_ changes: [String: Any?]) -> [String: Any] {
    var m = base
    for (k, v) in changes { m[k] = v }
    return m
  }

  @Test func defaults() throws {
    let s = try #require(try Self.parse(Self.base))
    #expect(s.tls == .starttls)
    #expect(s.subjectPrefix == "[storerecon]")
    #expect(s.username == nil && s.password == nil)
    #expect(s.timeoutSeconds == 60)
    #expect(try Self.parse(Self.with(["smtp": "smtps://mail.acme.example"]))?.tls == .implicit)
    #expect(try MailSettings.parse(nil, baseDirectory: "/", name: "c") == nil)
  }

  @Test func passwordSources() throws {
    let env = try Self.parse(Self.with(["username": "recon", "passwordEnv": "STORERECON_SMTP_PASSWORD"]))
    #expect(env?.password == .environment("STORERECON_SMTP_PASSWORD"))
    #expect(try env?.resolvePassword(environment: ["STORERECON_SMTP_PASSWORD": "pw"]) == "pw")
    #expect(throws: MailError.self) { try env?.resolvePassword(environment: [:]) }
    let file = try Self.parse(Self.with(["username": "recon", "passwordFile": "secrets/smtp"]))
    #expect(file?.password == .file("/etc/storerecon/secrets/smtp"))
    #expect(try Self.parse(Self.with(["caFile": "ca/relay.pem"]))?.caFile == "/etc/storerecon/ca/relay.pem")

    let dir = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("pw").path
    try Data("line one\r\n".utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o600)
    let fromFile = try Self.parse(Self.with(["username": "recon", "passwordFile": path]))
    #expect(try fromFile?.resolvePassword(environment: [:]) == "line one")
    // Group or others with any access: refused as libpq refuses such a ~/.pgpass, saying how to fix it.
    for mode in [0o640, 0o604, 0o620] as [mode_t] {
      chmod(path, mode)
      let octal = "0" + String(mode, radix: 8)
      do {
        _ = try fromFile?.resolvePassword(environment: [:])
        Issue.record("mode \(octal): expected a refusal")
      } catch {
        #expect(error.kind == .config)
        #expect(
          error.message
            == "the SMTP password file \(path) (mail.passwordFile) is open to group or others (mode \(octal)): "
            + "refused, as libpq refuses such a ~/.pgpass; run chmod 600 \(path)")
      }
    }
  }

  @Test func rejectedShapes() {
    let cases: [([String: Any?], String)] = [
      (["password": "hunter2"], "mail.password is not allowed"),
      (["smtp": "smtp://user:pw@mail.acme.example"], "must not hold a user name or password"),
      (["smtp": "http://mail.acme.example"], "must start with smtp://"),
      (["smtp": "smtp://"], "names no host"),
      (["tls": "implicit"], "tls implicit needs an smtps:// URL"),
      (["smtp": "smtps://h", "tls": "starttls"], "needs an smtp:// URL"),
      (["tls": "sometimes"], "tls must be starttls, implicit or none"),
      (["username": "recon"], "username needs passwordEnv or passwordFile"),
      (["passwordEnv": "X"], "need a username"),
      (["username": "r", "passwordEnv": "X", "passwordFile": "f"], "not both"),
      (["username": "r", "passwordEnv": "1BAD-NAME"], "environment variable name"),
      (["to": []], "at least one recipient"),
      (["to": ["not an address"]], "is not an e-mail address"),
      (["from": nil], "from is required"),
      (["smpt": "typo"], "smpt is not a mail setting"),
      (["timeoutSeconds": 0], "timeoutSeconds"),
      (["tls": "none", "caFile": "ca.pem"], "caFile needs TLS"),
    ]
    for (changes, message) in cases {
      do {
        _ = try Self.parse(Self.with(changes))
        Issue.record("accepted \(changes)")
      } catch {
        #expect(error.kind == .config)
        #expect(error.message.contains(message), "\(error.message)")
      }
    }
  }
}
