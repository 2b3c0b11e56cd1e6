package import StoreReconPlatform
package import StoreReconCore
package import StoreReconSettings
import StoreReconReports

/// The mail phase: after the folder is published, completeness decides whether the summary is mailed,
/// and the mail adapter (``MailTransport``) sends it (docs/email.md).
extension ReconciliationRun {
  /// `run --mail`'s options.
  package struct MailOptions: Sendable {
    /// `--dry-run`: write `message.eml` into the folder instead of sending.
    package var dryRun = false
    /// `--mail-incomplete`: mail an incomplete run all the same.
    package var mailIncomplete = false

    /// Options as given.
    package init(dryRun: Bool = false, mailIncomplete: Bool = false) {
      self.dryRun = dryRun
      self.mailIncomplete = mailIncomplete
    }
  }

  /// After a run: completeness, the e-mail, then the outcome — incomplete (with `--require-complete`,
  /// or with `--mail` and without `--mail-incomplete`: nothing mailed) before a mail failure (thrown:
  /// 75/77/78) before a malformed input file before a threshold exceeded before clean.
  package static func finish(
    _ result: RunResult, command: Command, mail: MailSettings?, transport: any MailTransport,
    progress: any ProgressSink
  ) throws(RunError) -> RunOutcome {
    let summary = result.summary
    let incomplete = summary?.facts.incomplete ?? []
    if !incomplete.isEmpty {
      let reasons = incomplete.joined(separator: "; ")
      if command.requireComplete {
        StandardError.write(
          "storerecon: error: INCOMPLETE — \(reasons); not mailed (--require-complete); reports written to \(result.outDirectory)\n"
        )
        return .incomplete
      }
      StandardError.write("storerecon: warning: INCOMPLETE — \(reasons)\n")
      if mail != nil && command.mail?.mailIncomplete != true {
        // An incomplete answer is not mailed as if it were the answer (docs/email.md).
        StandardError.write(
          "storerecon: error: INCOMPLETE — not mailed; reports written to \(result.outDirectory); "
            + "add --mail-incomplete to mail an incomplete run, or mail it later with "
            + "'storerecon mail --out \(result.outDirectory)'\n")
        return .incomplete
      }
    }
    if let mail {
      _ = try transport.deliver(
        folder: result.outDirectory, settings: mail, dryRun: command.mail?.dryRun == true, progress: progress)
    }
    if !result.failedInputs.isEmpty { return .malformedInput }
    if let summary, summary.isAlert {
      StandardError.write("storerecon: ALERT — \(summary.breaches.map(\.text).joined(separator: "; "))\n")
      return .thresholdExceeded
    }
    return .clean
  }

  /// `storerecon mail`: mails the reports of `folder` (by default `reports/<date>`, the date by default
  /// yesterday in the config's time zone) once the manifest shows them whole and unchanged; returns the
  /// line saying what was sent or written.
  package static func mailReports(
    configPath: String, date: CivilDate?, folder: String?, dryRun: Bool, transport: any MailTransport,
    progress: any ProgressSink
  ) throws(RunError) -> String {
    let config = try RunConfig.load(path: configPath)
    guard let settings = config.mail else {
      throw RunError(.config, "config \(configPath) has no \"mail\" section (from, to, smtp)")
    }
    var folder = folder
    if folder == nil {
      guard let calendar = ReportCalendar(identifier: config.timeZone) else {
        throw RunError(.config, "config \(configPath): unknown time zone '\(config.timeZone)'")
      }
      folder = "reports/\(date ?? calendar.yesterday())"
    }
    // Only one run's reports, whole and unchanged, are mailed.
    try ManifestCheck.verify(folder: folder ?? ".")
    let receipt = try transport.deliver(
      folder: folder ?? ".", settings: settings, dryRun: dryRun, progress: progress)
    if let eml = receipt.emlPath { return "wrote \(eml): \(receipt.subject)" }
    return "mailed \(receipt.subject) to \(receipt.recipients.joined(separator: ", "))"
  }
}
