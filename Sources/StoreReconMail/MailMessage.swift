import StoreReconPlatform
package import StoreReconCore
package import StoreReconSettings

/// The morning e-mail as an RFC 5322 / MIME message: `multipart/mixed` holding a `multipart/alternative`
/// (text/plain and text/html, UTF-8, quoted-printable; with pictures, the HTML and its PNG images in a
/// `multipart/related`) and one base64 part per attachment.
///
/// Pure: the caller supplies the date and the Message-ID, so the same values give the same bytes.
package struct MailMessage: Sendable {
  /// Sender.
  package var from: MailAddress
  /// Recipients (all in `To:`).
  package var to: [MailAddress]
  /// Subject (any Unicode; encoded as RFC 2047 words when not ASCII).
  package var subject: String
  /// The `Date:` instant.
  package var date: Instant
  /// The Message-ID without angle brackets: `storerecon.2026-11-29.3f9a…@acme.example`.
  package var messageId: String
  /// The plain-text body (summary.txt).
  package var text: String
  /// The HTML body (summary.html).
  package var html: String
  /// Files to attach, in order.
  package var attachments: [MailAttachment]
  /// The PNG pictures the HTML shows by `cid:` (``EmailPictures``), in order.
  package var images: [MailInlineImage] = []
  /// Pictures left as SVG because they could not be rendered: what and why.
  package var pictureFailures: [String] = []

  /// Creates a message.
  package init(
    from: MailAddress, to: [MailAddress], subject: String, date: Instant, messageId: String, text: String,
    html: String,
    attachments: [MailAttachment] = []
  ) {
    self.from = from
    self.to = to
    self.subject = subject
    self.date = date
    self.messageId = messageId
    self.text = text
    self.html = html
    self.attachments = attachments
  }

  /// Boundaries start with `=_`, which neither quoted-printable nor base64 can produce, so they never
  /// occur in a part's content.
  var boundaries: (mixed: String, alternative: String) {
    let tag = String(SHA256Digest.hex(of: Array(messageId.utf8)).prefix(24))
    return ("=_storerecon_mixed_\(tag)", "=_storerecon_alt_\(tag)")
  }

  /// The boundary of the `multipart/related` part (the HTML and its pictures).
  var relatedBoundary: String {
    "=_storerecon_rel_" + String(SHA256Digest.hex(of: Array(messageId.utf8)).prefix(24))
  }

  /// The whole message with CRLF line ends, ready for SMTP DATA or a `.eml` file.
  package func rendered() -> [UInt8] {
    let (mixed, alternative) = boundaries
    var head = ""
    head += HeaderText.field("From", from.headerValue)
    head += foldedAddressList("To", to)
    head += HeaderText.field("Subject", subject)
    head += HeaderText.field("Date", RFC5322Date.format(date))
    head += HeaderText.field("Message-ID", "<\(messageId)>")
    head += "MIME-Version: 1.0\r\n"
    head += "Auto-Submitted: auto-generated\r\n"
    head += "Content-Type: multipart/mixed;\r\n boundary=\"\(mixed)\"\r\n"
    head += "\r\n"
    head += "This is a multi-part message in MIME format.\r\n"
    var out = Array(head.utf8)
    func line(_ text: String) { out += Array(text.utf8) + [13, 10] }
    line("")
    line("--\(mixed)")
    line("Content-Type: multipart/alternative;")
    line(" boundary=\"\(alternative)\"")
    line("")
    func textPart(_ type: String, _ body: String) {
      line("Content-Type: \(type); charset=UTF-8")
      line("Content-Transfer-Encoding: quoted-printable")
      line("")
      out += QuotedPrintable.encode(body)
      line("")
    }
    line("--\(alternative)")
    textPart("text/plain", text)
    line("--\(alternative)")
    if images.isEmpty {
      textPart("text/html", html)
    } else {
      let related = relatedBoundary
      line("Content-Type: multipart/related;")
      line(" boundary=\"\(related)\"; type=\"text/html\"")
      line("")
      line("--\(related)")
      textPart("text/html", html)
      for image in images {
        line("--\(related)")
        line("Content-Type: image/png; \(HeaderText.parameter("name", image.filename))")
        line("Content-Transfer-Encoding: base64")
        line("Content-ID: <\(image.contentID)>")
        line("Content-Disposition: inline; \(HeaderText.parameter("filename", image.filename))")
        line("")
        out += MIMEBase64.lines(image.bytes)
      }
      line("--\(related)--")
      line("")
    }
    line("--\(alternative)--")
    for attachment in attachments {
      line("")
      line("--\(mixed)")
      // Folded after the colon: the XLSX type alone is 66 characters.
      line("Content-Type:")
      line(" \(attachment.contentType);")
      line(" \(HeaderText.parameter("name", attachment.filename))")
      line("Content-Transfer-Encoding: base64")
      line("Content-Disposition: attachment;")
      line(" \(HeaderText.parameter("filename", attachment.filename))")
      line("")
      out += MIMEBase64.lines(attachment.bytes)
    }
    line("")
    line("--\(mixed)--")
    return out
  }

  func foldedAddressList(_ name: String, _ addresses: [MailAddress]) -> String {
    var out = "\(name): "
    var lineLength = out.count
    for (i, address) in addresses.enumerated() {
      let value = address.headerValue + (i + 1 < addresses.count ? "," : "")
      if i > 0 {
        if lineLength + 1 + value.utf8.count > 78 {
          out += "\r\n "
          lineLength = 1
        } else {
          out += " "
          lineLength += 1
        }
      }
      out += value
      lineLength += value.utf8.count
    }
    return out + "\r\n"
  }
}
