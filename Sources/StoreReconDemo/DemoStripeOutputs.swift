import StoreReconCore

/// The demo's Stripe files: `exports/stripe/objects.jsonl` (every web subscription's objects as
/// Stripe's API returns them, a truncated copy of a customer's line to reject), Stripe's event list
/// `exports/stripe/events.jsonl` (the webhook events of the notification-health plants; those the app
/// received are also rows of its notification log) and the balance report's monthly CSVs
/// (``DemoStripeBalance``).
package final class DemoStripeOutputs {
  package static let objectsPath = "exports/stripe/objects.jsonl"
  package static let eventsPath = "exports/stripe/events.jsonl"

  let t: Instant
  let seed: UInt64
  /// `nil`: the world has no web subscriptions.
  let writer: DemoFileWriter?
  /// Stripe's event list (`nil` with `writer`).
  let events: DemoFileWriter?
  /// The balance report, recorded as the subscriptions are written.
  var balance: DemoStripeBalance
  /// Malformed lines written (one truncated copy of a clean line).
  var rejects = 0

  /// Tie-out differences of each status planted in the balance report.
  let count: Int

  /// The Stripe files of a world written with `options` (none where it has no web subscriptions).
  init(directory: String, t: Instant, options: DemoOptions) throws {
    self.t = t
    seed = options.seed
    count = DemoScenario.count(forUsers: options.users)
    balance = DemoStripeBalance(t: t, seed: seed)
    guard options.writesStripe else {
      writer = nil
      events = nil
      return
    }
    events = try DemoFileWriter(directory: directory, relativePath: DemoStripeOutputs.eventsPath)
    let writer = try DemoFileWriter(directory: directory, relativePath: DemoStripeOutputs.objectsPath)
    let start = CivilDate(year: 2025, month: 11, day: 3).startUTC
    for line in DemoStripeObjects.catalog(at: start, currency: "usd") {
      try writer.write(bytes: line.utf8)
      try writer.write("\n")
    }
    self.writer = writer
  }

  /// Writes the web subscriptions of `group`, and the rows of their webhook events the app received
  /// into its notification log `log`.
  func emit(_ group: DemoGroup, log: DemoFileWriter?) throws {
    guard let writer, let events, !group.stripe.isEmpty else { return }
    for sub in group.stripe {
      for e in sub.events {
        let text = DemoStripeObjects.event(e, sub)
        try events.write(bytes: text.utf8)
        try events.write("\n")
        guard let received = e.received, let log else { continue }
        var row = DemoLine()
        row.raw("stripe,")
        row.csv(e.id)
        row.raw(",")
        row.text(received.at.description)
        row.raw(",")
        row.text(received.processed.description)
        row.raw(",")
        row.csv(text)
        try log.writeLine(row)
      }
      let lines = DemoStripeObjects.lines(sub)
      for line in lines {
        try writer.write(bytes: line.utf8)
        try writer.write("\n")
      }
      // The customer's line, the same in both API shapes.
      if rejects == 0 && sub.natural, let line = lines.first {
        rejects = 1
        try writer.write(bytes: line.utf8.prefix(line.utf8.count / 2))
        try writer.write("\n")
      }
      balance.record(sub)
    }
  }

  /// Closes the objects file and writes the balance report; gives `reports` the planted Stripe tie-out
  /// orders and `outputs` the objects file's rejects. Returns the files written.
  func finish(into directory: String, reports: DemoStoreReports, outputs: DemoOutputs) throws -> [String] {
    guard let writer, let events else { return [] }
    try writer.close()
    try events.close()
    let report = try balance.finish(into: directory, count: count)
    reports.stripeOrders = report.orders
    outputs.rejects[DemoStripeOutputs.objectsPath] = rejects
    return [DemoStripeOutputs.objectsPath, DemoStripeOutputs.eventsPath] + report.files
  }
}
