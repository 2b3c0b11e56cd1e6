import Foundation
import StoreReconPlatform
import StoreReconSettings
import StoreReconMail
import StoreReconRun

/// The e-mail of a run through StoreReconMail (SMTP over libcurl, pictures through librsvg): the
/// adapter the shell hands to the run. The SMTP password is read from this process's environment.
struct SMTPMail: MailTransport {
  func deliver(folder: String, settings: MailSettings, dryRun: Bool, progress: any ProgressSink)
    throws(RunError) -> MailReceipt
  {
    let outcome = try viaMail { () throws(MailError) in
      try MailDelivery.deliver(
        folder: folder, settings: settings, dryRun: dryRun, environment: ProcessInfo.processInfo.environment,
        progress: progress)
    }
    return MailReceipt(subject: outcome.subject, recipients: outcome.recipients, emlPath: outcome.emlPath)
  }
}
