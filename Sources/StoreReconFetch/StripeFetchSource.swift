import StoreReconCore
package import StoreReconSettings

/// Stripe: every subscription, invoice, charge, refund, dispute, customer, price and product of the
/// account, kept as their latest state in the journal `stripe/objects/` (the first fetch lists them, later ones
/// follow the events), and the balance report per month in `stripe/reports/` through report runs
/// (docs/fetch.md#stripe). The key is a restricted key (or a secret key) from `STRIPE_API_KEY` or the
/// file `fetch.stripe.apiKeyFile` names; its cursors are ``StripeFetchState``.
package final class StripeFetchSource: FetchSource {
  package let name = "stripe"

  /// Creates the source.
  package init() {}

  /// 25: Stripe's limit per endpoint and in test mode; a quarter of the 100 a second of live mode
  /// (docs/fetch.md#retries-limits-and-failures).
  package let defaultRequestsPerSecond = 25.0

  package func isConfigured(_ config: FetchConfig) -> Bool { config.stripe != nil }

  package func run(_ context: FetchContext) throws(FetchError) -> FetchReport {
    var report = FetchReport(source: name)
    guard let settings = context.config.stripe else { return report }
    let key = try StripeKey.load(settings, environment: context.environment)
    if !key.isRestricted {
      context.progress.note(
        "fetch stripe: the key (from \(key.origin)) is a secret key that may write; a restricted key with Read "
          + "permissions is enough (docs/fetch.md#stripe)")
    }
    let api = StripeAPI(
      http: context.http, baseURL: context.config.stripeURL, filesURL: context.config.stripeFilesURL, key: key
    )
    var state = try context.state.load(StripeFetchState.self, for: name) ?? StripeFetchState()
    do {
      let objects = try StripeObjectFetch(context: context, api: api, backfillDays: settings.backfillDays)
        .run(&state)
      try context.state.save(state, for: name)
      report.records += objects.listed + objects.retrieved + objects.referenced
      context.progress.note(StripeFetchSource.line(objects))
      if settings.reports {
        let reports = try StripeReports(context: context, api: api, backfillDays: settings.backfillDays).run(
          &state
        ) { (saved) throws(FetchError) in try context.state.save(saved, for: name) }
        report.records += reports.files
        context.progress.note(
          "fetch stripe: balance report: \(reports.runs) report runs, \(reports.files) months written "
            + "(Stripe's data reach \(StripeObjectFetch.day(reports.availableEnd)))")
      }
      try context.state.save(state, for: name)
    } catch {
      // What was done stays done: the next fetch resumes from it (a pending report run is waited for).
      try? context.state.save(state, for: name)
      throw error
    }
    return report
  }

  /// The progress line of the objects step (counts only).
  static func line(_ outcome: StripeObjectFetch.Outcome) -> String {
    var line = "fetch stripe: "
    if let listing = outcome.listing { line += "\(outcome.listed) objects listed (\(listing)); " }
    line += "\(outcome.events) events, \(outcome.retrieved) objects asked for again, "
    line += "\(outcome.referenced) referred to; \(outcome.total) objects in \(StripeObjects.folder)/, "
    line += "\(outcome.eventsKept) events in \(StripeEvents.folder)/"
    if outcome.unknown > 0 { line += "; \(outcome.unknown) unknown to Stripe (404)" }
    return line
  }
}
