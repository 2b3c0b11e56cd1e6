import Foundation
import Testing
import StoreReconTestSupport

/// STARTTLS and implicit TLS against the loopback server with a self-signed certificate: the certificate
/// is verified (caFile), required STARTTLS is honoured, and a server that wants TLS refuses clear text.
@Suite(
  .serialized, .enabled(if: SMTPSink.python != nil, SMTPSink.unavailable),
  .enabled(
    if: TestCertificate.opensslAvailable, "no /usr/bin/openssl to make a test certificate: TLS tests skipped")
)
struct SMTPTLSTests {
  static let password = "tls-pw"

  static func mail(url: String, tls: String, caFile: String?) -> [String: Any] {
    var mail: [String: Any] = [
      "from": "recon@acme.example", "to": ["finance@acme.example"], "smtp": url, "tls": tls,
      "username": "recon",
      "passwordEnv": "STORERECON_TEST_SMTP_PASSWORD", "timeoutSeconds": 20,
    ]
    if let caFile { mail["caFile"] = caFile }
    return mail
  }

  @Test func starttlsVerifiesTheCertificateAndSends() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let cert = try TestCertificate(in: world.directory)
    let sink = try SMTPSink(user: "recon", password: Self.password, tls: cert)
    defer { sink.stop() }
    let env = ["STORERECON_TEST_SMTP_PASSWORD": Self.password]

    try world.setConfig(["mail": Self.mail(url: sink.url, tls: "starttls", caFile: "cert.pem")])
    let ok = try world.run(["--mail"], environment: env)
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(try sink.received().count == 1)

    // Without the CA the certificate does not verify: no mail, exit 75, one line.
    try world.setConfig(["mail": Self.mail(url: sink.url, tls: "starttls", caFile: nil)])
    let untrusted = try world.run(["--mail"], environment: env)
    #expect(untrusted.status == 75)
    #expect(untrusted.stderr.split(separator: "\n").count == 1, "\(untrusted.stderr)")
    #expect(untrusted.stderr.lowercased().contains("certificate"), "\(untrusted.stderr)")

    // Clear text to a server that requires STARTTLS: refused, exit 75.
    try world.setConfig(["mail": Self.mail(url: sink.url, tls: "none", caFile: nil)])
    let clear = try world.run(["--mail"], environment: env)
    #expect(clear.status == 75, "\(clear.stderr)")
    #expect(
      clear.stderr.contains("the server wants TLS before AUTH (set mail.tls to starttls)"), "\(clear.stderr)")
    #expect(try sink.received().count == 1)
  }

  @Test func implicitTLSSends() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let cert = try TestCertificate(in: world.directory)
    let sink = try SMTPSink(user: "recon", password: Self.password, tls: cert, implicit: true)
    defer { sink.stop() }
    try world.setConfig([
      "mail": Self.mail(url: "smtps://127.0.0.1:\(sink.port)", tls: "implicit", caFile: "cert.pem")
    ])
    let out = try world.run(["--mail"], environment: ["STORERECON_TEST_SMTP_PASSWORD": Self.password])
    #expect(out.status == 0, "\(out.stderr)")
    let received = try sink.received()
    try #require(received.count == 1)
    #expect(received[0].recipients == ["finance@acme.example"])
  }
}
