import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconMail
@testable import StoreReconSettings

/// The message bytes: quoted-printable, base64 lines, encoded headers, structure, dates.
struct MIMEMessageTests {
  static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    Array(bytes.split(separator: 10, omittingEmptySubsequences: false).dropLast())
  }

  @Test func quotedPrintableRoundTripsAndKeepsLinesShort() {
    let samples = [
      "OK — 2026-11-29: 115 findings; " + String(repeating: "long line with = signs and ümlauts ", count: 8),
      "trailing space \nand tab\t\n.leading dot\nFrom here\n",
      String(repeating: "x", count: 75) + " " + String(repeating: "y", count: 80),
      "€",
      "",
    ]
    for text in samples {
      let encoded = QuotedPrintable.encode(text)
      #expect(
        String(
          decoding: MIMETestDecoding.quotedPrintable(String(decoding: encoded, as: UTF8.self)), as: UTF8.self)
          == text.replacingOccurrences(of: "\n", with: "\r\n"))
      for line in Self.lines(encoded + [13, 10]) {
        #expect(line.count <= 77, "\(String(decoding: line, as: UTF8.self))")  // 76 + CR
        let content = line.last == 13 ? line.dropLast() : line
        #expect(content.last != 0x20 && content.last != 0x09)
        #expect(content.first != 0x2E, "a line starting with '.'")
      }
      #expect(encoded.allSatisfy { $0 == 10 || $0 == 13 || ($0 >= 0x20 && $0 < 0x7F) })
    }
    #expect(QuotedPrintable.encode("a=b —") == Array("a=3Db =E2=80=94".utf8))
  }

  @Test func base64LinesOf76() throws {
    for size in [0, 1, 2, 3, 56, 57, 58, 1000] {
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
      let encoded = MIMEBase64.lines(bytes)
      let text = String(decoding: encoded, as: UTF8.self)
      #expect(Self.lines(encoded).allSatisfy { $0.count <= 77 && $0.last == 13 })
      #expect(
        Data(base64Encoded: text.replacingOccurrences(of: "\r\n", with: "")).map { [UInt8]($0) } == bytes)
      #expect(MIMEBase64.encode(bytes) == Data(bytes).base64EncodedString())
    }
  }

  @Test func headersEncodeNonASCIIAndFoldLongLines() {
    let subject =
      "[storerecon] ALERT, INCOMPLETE — 2026-11-29: 115 findings — Ünïcödé all the way to the end of it"
    let field = HeaderText.field("Subject", subject)
    #expect(field.hasPrefix("Subject: =?UTF-8?B?"))
    #expect(field.hasSuffix("\r\n"))
    #expect(field.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 })
    #expect(MIMETestDecoding.subject(field + "\r\n") == subject)
    // Plain ASCII stays readable and folds at spaces.
    let ascii = "[storerecon] OK " + String(repeating: "word ", count: 30)
    let plain = HeaderText.field("Subject", ascii)
    #expect(!plain.contains("=?"))
    #expect(plain.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 })
    #expect(MIMETestDecoding.headers(plain + "\r\n")["Subject"] == ascii.trimmingCharacters(in: .whitespaces))
    // A multi-byte character is never split between two words.
    for word in HeaderText.encodedWords(String(repeating: "€", count: 40)) {
      let b64 = String(word.dropFirst(10).dropLast(2))
      #expect(Data(base64Encoded: b64).flatMap { String(data: $0, encoding: .utf8) } != nil)
    }
    #expect(HeaderText.parameter("filename", "reconciliation.xlsx") == "filename=\"reconciliation.xlsx\"")
    #expect(HeaderText.parameter("filename", "Prüfung 1.xlsx") == "filename*=UTF-8''Pr%C3%BCfung%201.xlsx")
  }

  @Test func addresses() {
    #expect(MailAddress.parse("finance@acme.example") == MailAddress(address: "finance@acme.example"))
    let named = MailAddress.parse("  Acme Recon <recon@acme.example> ")
    #expect(named == MailAddress(displayName: "Acme Recon", address: "recon@acme.example"))
    #expect(named?.domain == "acme.example")
    #expect(
      MailAddress.parse("\"Recon, Acme\" <r@a.example>")?.headerValue == "\"Recon, Acme\" <r@a.example>")
    #expect(MailAddress.parse("Ünal <u@a.example>")?.headerValue == "=?UTF-8?B?w5xuYWw=?= <u@a.example>")
    for bad in [
      "", "no-at-sign", "a@", "@b", "a b@c.example", "a@b@c", "<>", "x <a@b.example",
      "a@b.example\r\nBcc: x@y",
    ] {
      #expect(MailAddress.parse(bad) == nil, "\(bad)")
    }
  }

  @Test func rfc5322Dates() {
    #expect(RFC5322Date.format(Instant(ms: 0)) == "Thu, 1 Jan 1970 00:00:00 +0000")
    #expect(
      RFC5322Date.format(Instant.parseISO8601("2026-11-30T06:15:09.999Z")!)
        == "Mon, 30 Nov 2026 06:15:09 +0000")
    #expect(
      RFC5322Date.format(Instant.parseISO8601("1969-12-31T23:59:59Z")!) == "Wed, 31 Dec 1969 23:59:59 +0000")
    #expect(
      RFC5322Date.format(Instant.parseISO8601("2028-02-29T12:00:00Z")!) == "Tue, 29 Feb 2028 12:00:00 +0000")
  }

  @Test func messageStructure() throws {
    let message = MailMessage(
      from: MailAddress(displayName: "Acme Recon", address: "recon@acme.example"),
      to: (1...6).map { MailAddress(address: "recipient\($0)@finance.acme.example") },
      subject: "[storerecon] OK — 2026-11-29: 3 findings", date: Instant(ms: 1_796_000_000_000),
      messageId: "storerecon.2026-11-29.0123456789abcdef@acme.example", text: "OK — text\n.\nend\n",
      html: "<p>OK — html</p>\n",
      attachments: [
        MailAttachment(
          filename: "reconciliation.xlsx", contentType: MailAttachment.xlsxType, bytes: Array(0...255))
      ])
    let bytes = message.rendered()
    #expect(bytes == message.rendered(), "same values, same bytes")
    let text = String(decoding: bytes, as: UTF8.self)
    // CRLF only, no line over 78 characters.
    for line in Self.lines(bytes) {
      #expect(line.last == 13)
      #expect(line.count <= 79)
    }
    #expect(bytes.suffix(2) == [13, 10])
    let headers = MIMETestDecoding.headers(text)
    #expect(headers["From"] == "Acme Recon <recon@acme.example>")
    #expect(headers["To"]?.components(separatedBy: ", ").count == 6)
    #expect(MIMETestDecoding.subject(text) == message.subject)
    #expect(headers["Date"] == RFC5322Date.format(message.date))
    #expect(headers["Message-ID"] == "<storerecon.2026-11-29.0123456789abcdef@acme.example>")
    #expect(headers["MIME-Version"] == "1.0")
    let (mixed, alternative) = message.boundaries
    #expect(headers["Content-Type"] == "multipart/mixed; boundary=\"\(mixed)\"")
    // Each boundary opens its parts and closes once; the dot line of the text is escaped.
    #expect(text.components(separatedBy: "\r\n--\(mixed)\r\n").count == 3)
    #expect(text.components(separatedBy: "\r\n--\(mixed)--\r\n").count == 2)
    #expect(text.components(separatedBy: "\r\n--\(alternative)\r\n").count == 3)
    #expect(text.components(separatedBy: "\r\n--\(alternative)--\r\n").count == 2)
    #expect(!text.contains("\r\n.\r\n"))
    #expect(
      text.contains(
        "Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nOK =E2=80=94 text\r\n=2E\r\nend\r\n"
      ))
    #expect(
      text.contains("Content-Type:\r\n \(MailAttachment.xlsxType);\r\n name=\"reconciliation.xlsx\"\r\n"))
    #expect(text.contains("Content-Disposition: attachment;\r\n filename=\"reconciliation.xlsx\"\r\n"))
    let attachmentBody = try #require(
      text.components(separatedBy: "filename=\"reconciliation.xlsx\"\r\n\r\n").last?
        .components(separatedBy: "\r\n\r\n--").first)
    #expect(
      Data(base64Encoded: attachmentBody.replacingOccurrences(of: "\r\n", with: "")).map { [UInt8]($0) }
        == Array(0...255))
  }
}
