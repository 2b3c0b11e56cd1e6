import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconMail

/// Real mail to a real SMTP server (aiosmtpd on loopback, started here): what arrives is parsed by
/// Python's email package and compared with the files on disk.
@Suite(.serialized, .enabled(if: SMTPSink.python != nil, SMTPSink.unavailable))
struct SMTPDeliveryTests {
  static let password = "pässword with spaces & symbols"

  static func mailConfig(url: String, auth: Bool = true) -> [String: Any] {
    var mail: [String: Any] = [
      "from": "Acme Recon <recon@acme.example>",
      "to": ["finance@acme.example", "Ünal Ops <ops@acme.example>"],
      "smtp": url, "tls": "none", "subjectPrefix": "[storerecon]", "timeoutSeconds": 20,
    ]
    if auth {
      mail["username"] = "recon"
      mail["passwordEnv"] = "STORERECON_TEST_SMTP_PASSWORD"
    }
    return mail
  }

  @Test func runMailSendsTheSummaryAndEveryWorkbook() throws {
    let sink = try SMTPSink(user: "recon", password: Self.password)
    defer { sink.stop() }
    let world = try RunWorld(extra: ["mail": Self.mailConfig(url: sink.url)])
    defer { world.remove() }
    let out = try world.run(["--mail"], environment: ["STORERECON_TEST_SMTP_PASSWORD": Self.password])
    #expect(out.status == 0, "\(out.stderr)")
    let messages = try sink.received()
    try #require(messages.count == 1)
    let m = messages[0]

    let summary = try world.file("summary.txt")
    // The status line, wrapped at 78 characters: its indented continuation lines joined back.
    var headline = String(summary.prefix { $0 != "\n" })
    for line in summary.split(separator: "\n").dropFirst() {
      guard line.hasPrefix("  ") else { break }
      headline += " " + line.dropFirst(2)
    }
    // The demo-like world has findings with money at stake and no run history: ATTENTION.
    #expect((headline.hasPrefix("ATTENTION — ") && headline.contains(" — 2026-11-29")), "\(headline)")
    #expect(m.string("subject") == "[storerecon] " + (headline.components(separatedBy: "; ").first ?? ""))
    #expect(m.string("mailFrom") == "recon@acme.example")
    #expect(m.recipients == ["finance@acme.example", "ops@acme.example"])
    #expect(m.string("from") == "Acme Recon <recon@acme.example>")
    #expect(m.string("to") == "finance@acme.example, Ünal Ops <ops@acme.example>")
    #expect(m.string("mimeVersion") == "1.0")
    #expect(m.string("messageId").hasPrefix("<storerecon.out."))
    #expect(m.string("messageId").hasSuffix("@acme.example>"))
    #expect(m.string("date").hasSuffix(" +0000"))
    #expect((m.json["defects"] as? [String]) == [])
    // The HTML's pictures travel as PNG parts beside it (multipart/related), one per SVG of summary.html.
    let summaryHTML = try world.file("summary.html")
    let pictures = summaryHTML.components(separatedBy: "<svg ").count - 1
    #expect(pictures >= 1)
    #expect(
      (m.json["parts"] as? [String])
        == ["multipart/mixed", "multipart/alternative", "text/plain", "multipart/related", "text/html"]
        + Array(repeating: "image/png", count: pictures) + [MailAttachment.xlsxType, MailAttachment.xlsxType])

    // The text part decodes to summary.txt; the HTML part is summary.html with each SVG an <img> of its PNG.
    #expect(m.string("text").replacingOccurrences(of: "\r\n", with: "\n") == summary)
    let html = m.string("html").replacingOccurrences(of: "\r\n", with: "\n")
    #expect(!html.contains("<svg"))
    #expect(
      Self.withoutPictures(html, from: "<img src=\"cid:", to: ">")
        == Self.withoutPictures(summaryHTML, from: "<svg ", to: "</svg>"))
    let inline = m.json["inline"] as? [[String: Any]] ?? []
    #expect(inline.count == pictures)
    for (i, image) in inline.enumerated() {
      let id = (image["contentId"] as? String ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
      #expect(html.contains("<img src=\"cid:\(id)\""), "picture \(i + 1): \(id)")
      let png = Data(base64Encoded: image["base64"] as? String ?? "").map { [UInt8]($0) } ?? []
      // The PNG signature, then IHDR: twice the picture's 600-unit width.
      #expect(png.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "picture \(i + 1)")
      #expect(
        png.count > 24 && Array(png[16..<20]) == [0, 0, 0x04, 0xB0], "picture \(i + 1) is 1,200 px wide")
    }

    // Every *.xlsx the run wrote is attached, by name, and decodes to the same bytes; nothing else is.
    let written = try FileManager.default.contentsOfDirectory(atPath: world.out.path)
      .filter { $0.hasSuffix(".xlsx") }.sorted()
    #expect(written.contains("reconciliation.xlsx"))
    #expect(m.attachments.compactMap { $0["filename"] as? String } == written)
    for attachment in m.attachments {
      let name = attachment["filename"] as? String ?? ""
      #expect(attachment["contentType"] as? String == MailAttachment.xlsxType)
      #expect((attachment["transferEncoding"] as? String)?.lowercased() == "base64")
      let decoded = Data(base64Encoded: attachment["base64"] as? String ?? "").map { [UInt8]($0) }
      let onDisk = try [UInt8](Data(contentsOf: world.out.appendingPathComponent(name)))
      #expect(decoded == onDisk, "\(name)")
    }
    // Every line of what arrived fits SMTP's limits and ends in CRLF.
    let lines = m.raw.split(separator: 10, omittingEmptySubsequences: false).dropLast()
    #expect(lines.allSatisfy { $0.last == 13 && $0.count <= 79 })
  }

  @Test func mailCommandSendsAFinishedRunFolder() throws {
    let sink = try SMTPSink()
    defer { sink.stop() }
    let world = try RunWorld(extra: ["mail": Self.mailConfig(url: sink.url, auth: false)])
    defer { world.remove() }
    let run = try world.run([])
    #expect(run.status == 0, "\(run.stderr)")
    let out = try Binary.run(["mail", "--config", world.config.path, "--out", world.out.path, "--quiet"])
    #expect(out.status == 0, "\(out.stderr)")
    #expect(
      (out.stdout.hasPrefix("mailed [storerecon] ATTENTION — ") && out.stdout.contains(" — 2026-11-29")),
      "\(out.stdout)")
    let messages = try sink.received()
    try #require(messages.count == 1)
    // The run's own workbooks are attached, byte for byte as they are on disk.
    let names = messages[0].attachments.compactMap { $0["filename"] as? String }
    #expect(names.contains("reconciliation.xlsx"))
    for attachment in messages[0].attachments {
      let name = attachment["filename"] as? String ?? ""
      let decoded = Data(base64Encoded: attachment["base64"] as? String ?? "").map { [UInt8]($0) }
      #expect(decoded == (try [UInt8](Data(contentsOf: world.out.appendingPathComponent(name)))), "\(name)")
    }
    #expect(
      messages[0].string("text").replacingOccurrences(of: "\r\n", with: "\n")
        == (try world.file("summary.txt")))
  }

  @Test func refusedConnectionExits75AndTheReportsStay() throws {
    let port = SMTPSink.closedPort()
    let world = try RunWorld(extra: ["mail": Self.mailConfig(url: "smtp://127.0.0.1:\(port)")])
    defer { world.remove() }
    let out = try world.run(["--mail"], environment: ["STORERECON_TEST_SMTP_PASSWORD": Self.password])
    #expect(out.status == 75)
    #expect(out.stderr.split(separator: "\n").count == 1, "\(out.stderr)")
    #expect(
      out.stderr.hasPrefix("storerecon: error: cannot send the e-mail through smtp://127.0.0.1:\(port): "))
    #expect(out.stderr.contains("the reports stay in \(world.out.path)"))
    try Self.expectReportsIntact(world.out)
  }

  @Test func wrongPasswordIsOneClearLineAndExit77() throws {
    let sink = try SMTPSink(user: "recon", password: Self.password)
    defer { sink.stop() }
    let world = try RunWorld(extra: ["mail": Self.mailConfig(url: sink.url)])
    defer { world.remove() }
    let out = try world.run(["--mail"], environment: ["STORERECON_TEST_SMTP_PASSWORD": "not the password"])
    #expect(out.status == 77)
    #expect(out.stderr.split(separator: "\n").count == 1, "\(out.stderr)")
    #expect(out.stderr.contains("refused the login of 'recon': wrong user name or password"))
    #expect(!out.stderr.contains("not the password"))
    #expect(try sink.received().isEmpty)
    try Self.expectReportsIntact(world.out)

    // No password in the environment: a config error before any connection, reports still written.
    let missing = try world.run(["--mail"], environment: ["STORERECON_TEST_SMTP_PASSWORD": ""])
    #expect(missing.status == 78)
    #expect(missing.stderr.contains("STORERECON_TEST_SMTP_PASSWORD (mail.passwordEnv) is not set"))
  }

  @Test func passwordFromAFile() throws {
    let sink = try SMTPSink(user: "recon", password: Self.password)
    defer { sink.stop() }
    let world = try RunWorld()
    defer { world.remove() }
    let file = world.directory.appendingPathComponent("smtp-password")
    try Data((Self.password + "\n").utf8).write(to: file)
    var mail = Self.mailConfig(url: sink.url)
    mail["passwordEnv"] = nil
    mail["passwordFile"] = "smtp-password"
    try world.setConfig(["mail": mail])
    // A password file others can read is refused, as libpq refuses such a ~/.pgpass (issue 32).
    chmod(file.path, 0o644)
    let open = try world.run(["--mail"])
    #expect(open.status == 78, "\(open.stderr)")
    #expect(
      open.stderr.contains(
        "the SMTP password file \(file.path) (mail.passwordFile) is open to group or others (mode 0644)"),
      "\(open.stderr)")
    #expect(open.stderr.contains("chmod 600 \(file.path)"))
    #expect(try sink.received().isEmpty)
    chmod(file.path, 0o600)
    let out = try world.run(["--mail"])
    #expect(out.status == 0, "\(out.stderr)")
    #expect(try sink.received().count == 1)
  }

  /// Every output the manifest lists exists with the checksum the manifest states.
  static func expectReportsIntact(_ folder: URL) throws {
    let manifest =
      try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("manifest.json")))
      as? [String: Any]
    let outputs = manifest?["outputs"] as? [[String: Any]] ?? []
    #expect(outputs.contains { $0["file"] as? String == "summary.txt" })
    #expect(outputs.contains { $0["file"] as? String == "summary.html" })
    for output in outputs {
      let name = output["file"] as? String ?? ""
      let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
      #expect(SHA256Digest.hex(of: bytes) == output["sha256"] as? String, "\(name)")
    }
  }

  /// `text` with every span from `from` to the next `to` (inclusive) replaced by one marker.
  static func withoutPictures(_ text: String, from: String, to: String) -> String {
    var out = ""
    var rest = Substring(text)
    while let start = rest.range(of: from), let end = rest[start.upperBound...].range(of: to) {
      out += rest[..<start.lowerBound] + "[picture]"
      rest = rest[end.upperBound...]
    }
    return out + rest
  }
}
