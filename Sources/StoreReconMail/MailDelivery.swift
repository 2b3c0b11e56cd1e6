import Foundation
package import StoreReconPlatform
package import StoreReconCore
package import StoreReconReports
package import StoreReconSettings

/// `storerecon mail` and `run --mail`: builds the e-mail from a finished run folder — summary.txt,
/// summary.html and every `*.xlsx` in it — and sends it, or writes it to `message.eml` (`--dry-run`).
package enum MailDelivery {
  /// What was delivered.
  package struct Outcome: Sendable {
    /// The subject sent.
    package var subject: String
    /// The recipients.
    package var recipients: [String]
    /// File names attached.
    package var attachments: [String]
    /// Size of the message in bytes.
    package var bytes: Int
    /// `message.eml`'s path for a dry run, `nil` when sent.
    package var emlPath: String?
  }

  /// Builds the message for `folder` (pure apart from reading the folder).
  package static func message(
    folder: String, settings: MailSettings, date: Instant, messageId: String
  ) throws(MailError) -> MailMessage {
    let text = try read(folder + "/summary.txt")
    let html = try read(folder + "/summary.html")
    // The status line, wrapped in summary.txt: its continuation lines joined back.
    let headline = TextWrap.firstItem(of: String(decoding: text, as: UTF8.self))
    var attachments: [MailAttachment] = []
    for name in xlsxFiles(in: folder) {
      attachments.append(
        MailAttachment(
          filename: name, contentType: MailAttachment.xlsxType, bytes: try read(folder + "/" + name)))
    }
    // The pictures as PNG parts: mail clients that strip SVG (Gmail, Outlook) show those.
    let tag = String(SHA256Digest.hex(of: Array(messageId.utf8)).prefix(16))
    let pictures = EmailPictures.inline(html: String(decoding: html, as: UTF8.self), tag: tag)
    var message = MailMessage(
      from: settings.from, to: settings.to,
      subject: ReportSummary.subject(prefix: settings.subjectPrefix, headline: headline),
      date: date, messageId: messageId, text: String(decoding: text, as: UTF8.self),
      html: pictures.html,
      attachments: attachments)
    message.images = pictures.images
    message.pictureFailures = pictures.failures
    return message
  }

  /// The `*.xlsx` files directly in `folder`, by name; hidden and temporary files left out.
  package static func xlsxFiles(in folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { name in
      guard name.lowercased().hasSuffix(".xlsx"), !name.hasPrefix(".") else { return false }
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory)
        && !isDirectory.boolValue
    }.sorted()
  }

  package static func read(_ path: String) throws(MailError) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
      if FileManager.default.fileExists(atPath: path) { throw MailError(.ioError, "cannot read \(path)") }
      throw MailError(.missingInput, "\(path) does not exist: not the folder of a finished run")
    }
    return [UInt8](data)
  }

  /// A fresh Message-ID: `storerecon.<report folder name>.<16 random hex digits>@<sender's domain>`.
  package static func newMessageId(folder: String, from: MailAddress) -> String {
    var generator = SystemRandomNumberGenerator()
    let random = String(generator.next() as UInt64, radix: 16)
    let padded = String(repeating: "0", count: 16 - random.count) + random
    let leaf = URL(fileURLWithPath: folder).lastPathComponent.filter {
      $0.isLetter || $0.isNumber || $0 == "-" || $0 == "."
    }
    return "storerecon.\(leaf.isEmpty ? "run" : leaf).\(padded)@\(from.domain)"
  }

  /// Builds the message for `folder` and sends it through `settings`' SMTP server, or writes it to
  /// `folder/message.eml` when `dryRun`.
  ///
  /// Errors: 66 no summary in the folder; 78 the password variable or file is missing; 77 the server
  /// refused the user name or password; 75 any other SMTP failure. The reports are never touched.
  package static func deliver(
    folder: String, settings: MailSettings, dryRun: Bool, environment: [String: String],
    progress: any ProgressSink
  ) throws(MailError) -> Outcome {
    let now = Instant(ms: Int64(Date().timeIntervalSince1970 * 1000))
    let message = try message(
      folder: folder, settings: settings, date: now,
      messageId: newMessageId(folder: folder, from: settings.from))
    let bytes = message.rendered()
    for failure in message.pictureFailures {
      progress.note(
        "note: a picture stays SVG in the e-mail (clients that strip SVG will not show it): \(failure)")
    }
    var outcome = Outcome(
      subject: message.subject, recipients: settings.to.map(\.address),
      attachments: message.attachments.map(\.filename),
      bytes: bytes.count, emlPath: nil)
    if dryRun {
      let path = folder + "/message.eml"
      do {
        try DurableFile.write(bytes, to: path)
      } catch {
        throw MailError(.ioError, error.description)
      }
      outcome.emlPath = path
      progress.note(
        "dry run: wrote \(path) (\(bytes.count) bytes, \(outcome.attachments.count) attachments) instead of sending"
      )
      return outcome
    }
    let password = try settings.resolvePassword(environment: environment)
    let connection = SMTPSender.Connection(
      url: settings.smtpURL, tls: settings.tls, username: settings.username, password: password,
      timeoutSeconds: settings.timeoutSeconds, caFile: settings.caFile)
    do {
      try SMTPSender.send(
        bytes, envelopeFrom: settings.from.address, recipients: outcome.recipients, connection: connection)
    } catch {
      switch error.kind {
      case .authentication:
        throw MailError(
          .noPermission,
          "SMTP server \(settings.smtpURL) refused the login of '\(settings.username ?? "")': wrong user name or password (\(error.message)); the reports stay in \(folder)"
        )
      case .unavailable:
        throw MailError(
          .unavailable,
          "cannot send the e-mail through \(settings.smtpURL): \(error.message); the reports stay in \(folder)"
        )
      }
    }
    progress.note(
      "mailed '\(message.subject)' to \(outcome.recipients.joined(separator: ", ")) through \(settings.smtpURL) (\(bytes.count) bytes, \(outcome.attachments.count) attachments)"
    )
    return outcome
  }
}
