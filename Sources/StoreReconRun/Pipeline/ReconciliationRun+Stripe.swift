import StoreReconCore
import StoreReconPlatform
import StoreReconImporters
import StoreReconIO

extension ReconciliationRun {
  /// Reads every `stripe.objects` and `stripe.events` input at once (an object's latest state and the
  /// charge a refund names may be in another file, an event's chain is found through the objects);
  /// `nil` when the run has none. Damaged files and worker shares are left out.
  static func readStripe(
    _ plan: [PlannedInput], skipping damaged: [Int: String], engine: [Int: EngineInput],
    progress: any ProgressSink
  ) -> StripeImport? {
    let inputs = plan.indices.filter {
      StripeReadAhead.roles.contains(plan[$0].role) && damaged[$0] == nil && engine[$0] == nil
    }
    guard let first = inputs.first else { return nil }
    let clock = ContinuousClock()
    let started = clock.now
    let reader = StripeObjectsReader(userMetadataKey: plan[first].stripeUserKey, window: plan[first].window)
    let result = reader.read(
      inputs.map {
        StripeObjectsReader.Input(
          index: Int32($0), path: plan[$0].path, display: plan[$0].display,
          eventsOnly: plan[$0].role == "stripe.events", snapshot: plan[$0].stripeSnapshot)
      },
      meter: { readMeter(plan[Int($0.index)], progress: progress) })
    if let note = result.unknownNote { progress.note(note) }
    if let (path, outcome) = result.wholeSnapshot {
      noteWholeRead(path, outcome, files: inputs.count, ms: milliseconds(clock.now - started), progress)
    }
    return result
  }

  /// Says what the whole Stripe read's snapshot (docs/snapshot.md#the-whole-stripe-read) did.
  static func noteWholeRead(
    _ path: String, _ outcome: ParseSnapshot.Outcome, files: Int, ms: Int64, _ progress: any ProgressSink
  ) {
    switch outcome {
    case .unread: break
    case .replayed:
      progress.note(
        "snapshot: the Stripe read (\(files) file\(files == 1 ? "" : "s") unchanged) taken whole from \(path) "
          + "(\(ms) ms)")
    case .parsed(let why):
      progress.note("snapshot: the Stripe read built again (\(why)); kept in \(path) (\(ms) ms)")
    case .notKept(let why):
      progress.note("warning: the snapshot of the Stripe read was not kept (\(why))")
    }
  }

  /// ``readStripe(_:skipping:engine:progress:)`` run on another thread from when it is made;
  /// ``result`` waits for it. The run reads the inputs before Stripe's in its plan meanwhile.
  final class StripeReadAhead {
    /// The roles read together.
    static let roles: Set<String> = ["stripe.objects", "stripe.events"]

    private final class Slot: @unchecked Sendable { var value: StripeImport? }
    private let slot = Slot()
    private var work: BackgroundWork<Never>?

    init(
      _ plan: [PlannedInput], skipping damaged: [Int: String], engine: [Int: EngineInput],
      progress: any ProgressSink
    ) {
      guard plan.contains(where: { StripeReadAhead.roles.contains($0.role) }) else { return }
      let slot = self.slot
      work = BackgroundWork {
        slot.value = ReconciliationRun.readStripe(plan, skipping: damaged, engine: engine, progress: progress)
      }
    }

    /// What the read gave (`nil` when the run has no Stripe file it reads), once it is done.
    var result: StripeImport? {
      work?.wait()
      work = nil
      return slot.value
    }
  }

  /// One `stripe.objects` or `stripe.events` file's share of the Stripe read: its records into the builder, its rejected
  /// lines into its rejects file; returns its report.
  static func takeStripe(
    _ share: StripeImport.File, _ input: PlannedInput, _ index: Int, rejects: RejectFileSink,
    into builder: LedgerBuilder, _ progress: any ProgressSink
  ) -> InputReport {
    var report = InputReport(role: input.role, path: input.display, rejectsFile: rejects.name)
    builder.beginInput(Int32(index))
    for record in share.records { builder.add(record) }
    for reject in share.rejects { rejects.reject(reject) }
    report.counts = share.counts
    report.duplicates = share.duplicates
    report.superseded = share.superseded
    report.error = share.error
    report.firstAt = share.firstAt
    report.lastAt = share.lastAt
    if let error = share.error { progress.note("ERROR \(error) — the lines before it are read") }
    let c = share.counts
    progress.note(
      "read \(input.role) \(input.display): \(c.read) rows, \(c.accepted) accepted, \(c.rejected) rejected, "
        + "\(share.duplicates) duplicates, \(share.superseded) superseded")
    return report
  }

  /// What follows the read of every input: the empty-contract attention line, Stripe's events, the
  /// credits kept once.
  static func settleRows(_ inputs: inout Inputs, stripe: StripeImport?) {
    if let line = emptyContractLine(inputs.reports) { inputs.attention.append(line) }
    if let stripe { takeStripeEvents(stripe, into: &inputs) }
    inputs.rows.keepCreditsOnce()
  }

  /// The feed lines of the chains `filter` keeps (all of them without one): a partition's share of the
  /// Stripe tie-out's feed side.
  static func keptFeed(_ feed: [StripeFeedLine], _ filter: LineageFilter?) -> [StripeFeedLine] {
    guard let filter else { return feed }
    return feed.filter { filter.chain(.stripe, $0.chainKey) }
  }

  /// Stripe's events as its notification history, and each Stripe notification of the app's log keyed
  /// by the chain its object belongs to (docs/rules.md#stripe-webhook-events).
  static func takeStripeEvents(_ stripe: StripeImport, into inputs: inout Inputs) {
    inputs.stripeAliases = stripe.aliases
    inputs.stripeDisputes = stripe.openDisputes
    inputs.rows.notificationHistory += stripe.events
    guard !stripe.aliases.isEmpty, let log = inputs.rows.notifications else { return }
    inputs.rows.notifications = log.map { n in
      guard n.store == .stripe, let key = n.chainKey else { return n }
      var resolved = n
      resolved.chainKey = stripe.chainKey(key)
      return resolved
    }
  }

  /// Each finding about a Stripe chain with a dispute still open names it in its detail, and puts at
  /// least the disputed amount at stake (in the finding's currency): docs/rules.md#stripe.
  static func namingDisputes(_ disputes: [String: [StripeOpenDispute]], _ findings: [Finding]) -> [Finding] {
    guard !disputes.isEmpty else { return findings }
    return findings.map { finding in
      guard finding.store == .stripe, let open = disputes[finding.chainKey] else { return finding }
      var f = finding
      f.detail += "; " + open.map(\.text).joined(separator: "; ") + ": money at stake"
      for d in open where f.currency == nil || f.currency == d.money.currency {
        if d.money.minor > (f.amountMinor ?? 0) {
          f.currency = d.money.currency
          f.amountMinor = d.money.minor
        }
      }
      return f
    }
  }
}
