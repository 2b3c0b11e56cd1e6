package import StoreReconPlatform
package import StoreReconSettings

/// Builds the e-mail of a finished report folder and sends it (SMTP through libcurl, in the shell), or
/// writes it to `message.eml`: the adapter a run is given, so that the run needs no libcurl or librsvg
/// (docs/email.md).
package protocol MailTransport {
  /// Sends the summary of `folder` through `settings`' server, or writes `folder/message.eml` when
  /// `dryRun`. A failure is the run error of its kind (75, 77, 78; 66 for a folder without a summary).
  func deliver(folder: String, settings: MailSettings, dryRun: Bool, progress: any ProgressSink)
    throws(RunError) -> MailReceipt
}

/// What the mail adapter delivered.
package struct MailReceipt: Sendable, Equatable {
  /// The subject sent.
  package var subject: String
  /// The recipients' addresses.
  package var recipients: [String]
  /// `message.eml`'s path for a dry run, `nil` when sent.
  package var emlPath: String?

  /// A receipt of `subject` to `recipients`, written to `emlPath` when a dry run.
  package init(subject: String, recipients: [String], emlPath: String?) {
    self.subject = subject
    self.recipients = recipients
    self.emlPath = emlPath
  }
}
