import Testing
import StoreReconPlatform
import StoreReconCore
import StoreReconReports
import StoreReconSettings
import StoreReconRun

/// The mail phase of a run (docs/email.md): completeness decides whether the handed-in mail adapter is
/// called, and how the run ends.
struct MailPhaseTests {
  /// A mail adapter that records what it was asked to send, and fails when told to.
  final class RecordingMail: MailTransport, @unchecked Sendable {
    var sent: [(folder: String, dryRun: Bool)] = []
    var failure: RunError?

    func deliver(folder: String, settings: MailSettings, dryRun: Bool, progress: any ProgressSink)
      throws(RunError) -> MailReceipt
    {
      if let failure { throw failure }
      sent.append((folder, dryRun))
      return MailReceipt(subject: "s", recipients: settings.to.map(\.address), emlPath: nil)
    }
  }

  static func settings() throws -> MailSettings {
    let section: [String: Any] = [
      "from": "recon@acme.example", "to": ["a@acme.example"], "smtp": "smtp://mail.acme.example:587",
    ]
    return try #require(try MailSettings.parse(section, baseDirectory: "/", name: "c.json"))
  }

  /// A published run of 2026-11-29 into `reports/x`, incomplete for `incomplete`'s reasons.
  static func result(incomplete: [String] = [], failedInput: Bool = false) -> RunResult {
    let date = CivilDate(year: 2026, month: 11, day: 29)
    var input = InputReport(role: "play.sales", path: "p.csv", rejectsFile: "")
    if failedInput { input.error = "p.csv: broken" }
    var result = RunResult(
      date: date, asOf: Instant(ms: 0), outDirectory: "reports/x", inputs: [input], findings: [],
      revenue: [], counts: [], files: [])
    result.summary = ReportSummary.build(
      SummaryFacts(
        version: "t", date: date, asOf: Instant(ms: 0), timeZone: "UTC", inputs: [input], findings: [],
        revenue: [], incomplete: incomplete))
    return result
  }

  static func command(mail: ReconciliationRun.MailOptions?, requireComplete: Bool = false)
    -> ReconciliationRun.Command
  {
    var command = ReconciliationRun.Command(request: ReconciliationRun.Request(configPath: "c.json"))
    command.mail = mail
    command.requireComplete = requireComplete
    return command
  }

  @Test func aCompleteRunIsMailedThroughTheAdapter() throws {
    let transport = RecordingMail()
    let outcome = try ReconciliationRun.finish(
      Self.result(), command: Self.command(mail: .init(dryRun: true)), mail: try Self.settings(),
      transport: transport, progress: MemoryProgress())
    #expect(outcome == .clean)
    #expect(transport.sent.map(\.folder) == ["reports/x"])
    #expect(transport.sent.map(\.dryRun) == [true])
  }

  @Test func anIncompleteRunIsNotMailedUnlessAskedTo() throws {
    let transport = RecordingMail()
    let incomplete = Self.result(incomplete: ["play.sales ends before 2026-11-29"])
    let held = try ReconciliationRun.finish(
      incomplete, command: Self.command(mail: .init()), mail: try Self.settings(), transport: transport,
      progress: MemoryProgress())
    #expect(held == .incomplete)
    #expect(transport.sent.isEmpty)
    let mailed = try ReconciliationRun.finish(
      incomplete, command: Self.command(mail: .init(mailIncomplete: true)), mail: try Self.settings(),
      transport: transport, progress: MemoryProgress())
    #expect(mailed == .clean)
    #expect(transport.sent.count == 1)
    let required = try ReconciliationRun.finish(
      incomplete, command: Self.command(mail: .init(mailIncomplete: true), requireComplete: true),
      mail: try Self.settings(), transport: transport, progress: MemoryProgress())
    #expect(required == .incomplete)
    #expect(transport.sent.count == 1)
  }

  @Test func aFailedMailIsTheRunErrorOfItsKindBeforeAMalformedInput() throws {
    let transport = RecordingMail()
    transport.failure = RunError(.unavailable, "smtp down")
    #expect(throws: RunError.self) {
      try ReconciliationRun.finish(
        Self.result(failedInput: true), command: Self.command(mail: .init()), mail: try Self.settings(),
        transport: transport, progress: MemoryProgress())
    }
    transport.failure = nil
    let outcome = try ReconciliationRun.finish(
      Self.result(failedInput: true), command: Self.command(mail: nil), mail: nil, transport: transport,
      progress: MemoryProgress())
    #expect(outcome == .malformedInput)
    #expect(transport.sent.isEmpty)
  }
}
