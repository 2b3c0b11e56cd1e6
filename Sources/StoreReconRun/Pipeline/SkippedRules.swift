package import StoreReconCore
package import StoreReconReports

/// The rules a run does not apply because an input they need is missing (`--allow-missing`) or could
/// not be read as a whole: a rule run on an empty table would report false findings by the thousand,
/// so it is skipped and the status says which answer is missing (docs/reports.md#the-status).
package struct SkippedRules: Sendable {
  /// One family of rules left out, for every store or for one.
  package struct Skip: Sendable, Equatable {
    /// What the status calls the family: `free entitlements and orphaned charges`.
    package var name: String
    /// The finding kinds it raises.
    package var kinds: Set<Finding.Kind>
    /// The store whose answer is missing; `nil`: every store's.
    package var store: Store?
    /// The tie-out (of `store`, or of every store) is left out.
    package var tieOut = false
    /// The price-test readouts are left out.
    package var readouts = false
    /// Why: each input it needs that failed (`app.entitlements app/entitlements.csv could not be read (…)`).
    package var causes: [String]

    /// `<name>[ for <store>] not checked: <causes>`.
    package var sentence: String {
      let scope = store.map { " for \($0.rawValue)" } ?? ""
      return "\(name)\(scope) not checked: \(causes.joined(separator: "; "))"
    }
  }

  /// The families skipped, in the order of ``families``.
  package var skips: [Skip] = []

  /// No rule is skipped.
  package var isEmpty: Bool { skips.isEmpty }

  /// Whether `finding` comes from a skipped rule (such findings are dropped: their answer is unknown).
  package func drops(kind: String, store: String) -> Bool {
    skips.contains { s in
      s.kinds.contains { $0.rawValue == kind } && (s.store == nil || s.store?.rawValue == store)
    }
  }

  /// Whether `finding` comes from a skipped rule.
  package func drops(_ finding: Finding) -> Bool {
    drops(kind: finding.kind.rawValue, store: finding.store.rawValue)
  }

  /// Whether the tie-out of `store` is left out.
  package func dropsTieOut(of store: Store) -> Bool {
    skips.contains { $0.tieOut && ($0.store == nil || $0.store == store) }
  }

  /// Whether the price-test readouts are left out.
  package var dropsReadouts: Bool { skips.contains(where: \.readouts) }

  /// A family of rules and the inputs it needs.
  struct Family: Sendable {
    var name: String
    var kinds: Set<Finding.Kind> = []
    /// App-row (and other store-independent) roles it needs.
    var app: Set<String>
    /// It needs each store's transaction feed (a failed feed skips that store's part).
    var feed = true
    /// A failed feed of any store skips it for every store (it compares stores).
    var acrossStores = false
    /// It needs the stores' own reports (the tie-out).
    var reports = false
    var tieOut = false
    var readouts = false
    /// Whether the config makes the run apply it at all.
    var applies: @Sendable (RunConfig) -> Bool = { _ in true }
  }

  /// Each store's transaction feed.
  static let feedRoles: [Store: Set<String>] = [
    .appStore: ["app_store.transactions"], .play: ["play.sales", "play.subscriptions", "play.voided"],
  ]

  /// Each store's own money reports (Play's sales report is both feed and report).
  static let reportRoles: [Store: Set<String>] = [
    .appStore: [
      "app_store.sales_reports", "app_store.subscriber_reports", "app_store.financial_reports",
      "app_store.financial_summaries",
    ],
    .play: ["play.earnings", "play.sales"],
  ]

  /// The rule families and the inputs each needs (docs/rules.md, docs/tieout.md).
  static let families: [Family] = [
    Family(
      name: "free entitlements and orphaned charges", kinds: [.freeEntitlement, .orphanedCharge],
      app: ["app.entitlements", "app.credentials", "app.goodwill"]),
    Family(
      name: "duplicate claims", kinds: [.duplicateClaim], app: ["app.entitlements", "app.credentials"]),
    Family(
      name: "double billing", kinds: [.doubleBilling], app: ["app.entitlements", "app.credentials"],
      acrossStores: true),
    Family(
      name: "credits", kinds: [.uncreditedPurchase, .doubleCredit, .creditNotReversed, .orphanCredit],
      app: ["app.credits", "app.credentials"], applies: { $0.credits != nil }),
    Family(
      name: "unprocessed notifications", kinds: [.notificationUnprocessed], app: ["app.notifications"],
      feed: false, applies: { $0.readsNotifications }),
    Family(
      name: "applied notifications", kinds: [.notificationNotApplied],
      app: ["app.notifications", "app.entitlements"], feed: false, applies: { $0.readsNotifications }),
    Family(
      name: "missing notifications", kinds: [.notificationMissing],
      app: ["app.notifications", "app_store.notification_history", "stripe.events"], feed: false,
      applies: {
        $0.readsNotifications && !($0.appStoreNotificationHistory.isEmpty && $0.stripeEvents.isEmpty)
      }),
    Family(
      name: "the tie-out", app: [], reports: true, tieOut: true, applies: { $0.hasStoreReports }),
    Family(
      name: "price-test readouts", app: ["app.assignments", "app.credentials", "fx.rates"],
      acrossStores: true, readouts: true, applies: { !$0.experiments.isEmpty }),
  ]

  /// An input that failed: its role and path, and the sentence that says why.
  package struct Failure: Sendable, Equatable {
    package var role: String
    package var path: String
    package var cause: String
  }

  /// The inputs that failed as a whole: those that could not be read, then those missing.
  package static func failures(reports: [InputReport], missing: [Completeness.Missing]) -> [Failure] {
    reports.compactMap { r in
      r.error.map {
        Failure(role: r.role, path: r.path, cause: "\(r.role) \(r.path) could not be read (\($0))")
      }
    }
      + missing.map {
        Failure(role: $0.role, path: $0.pattern, cause: "\($0.role): no file matches '\($0.pattern)'")
      }
  }

  /// No rule skipped.
  package init() {}

  /// The families `config` applies whose inputs include a failed one.
  package init(config: RunConfig, failures: [Failure]) {
    self.failures = failures
    guard !failures.isEmpty else { return }
    for family in Self.families where family.applies(config) {
      let app = failures.filter { family.app.contains($0.role) }
      var perStore: [(Store, [Failure])] = []
      for store in [Store.appStore, .play] {
        var needed = Set<String>()
        if family.feed { needed.formUnion(Self.feedRoles[store] ?? []) }
        if family.reports { needed.formUnion(Self.reportRoles[store] ?? []) }
        let failed = failures.filter { needed.contains($0.role) }
        if !failed.isEmpty { perStore.append((store, failed)) }
      }
      func skip(_ store: Store?, _ causes: [Failure]) -> Skip {
        Skip(
          name: family.name, kinds: family.kinds, store: store, tieOut: family.tieOut,
          readouts: family.readouts, causes: causes.map(\.cause))
      }
      if !app.isEmpty || (family.acrossStores && !perStore.isEmpty) {
        skips.append(skip(nil, app + perStore.flatMap(\.1)))
      } else {
        for (store, failed) in perStore { skips.append(skip(store, failed)) }
      }
    }
  }

  /// The inputs that failed.
  package private(set) var failures: [Failure] = []

  /// The families the failed input `role` at `path` leaves out, for its completeness line.
  package func names(role: String, path: String) -> [String] {
    guard let failure = failures.first(where: { $0.role == role && $0.path == path }) else { return [] }
    var names: [String] = []
    for s in skips where s.causes.contains(failure.cause) {
      let name = s.name + (s.store.map { " for \($0.rawValue)" } ?? "")
      if !names.contains(name) { names.append(name) }
    }
    return names
  }

  /// `outcome` without what the skipped rules found: their findings, and the tie-out of a store whose
  /// feed or reports failed.
  /// Returns how many findings were dropped.
  @discardableResult
  package func apply(to outcome: inout ReconciliationRun.Outcome) -> Int {
    guard !isEmpty else { return 0 }
    let before = outcome.findings.count
    outcome.findings.removeAll(where: drops)
    outcome.tieOut.cells.removeAll { dropsTieOut(of: $0.store) }
    outcome.tieOut.orders.removeAll { dropsTieOut(of: $0.store) }
    if dropsReadouts, outcome.readouts != nil { outcome.readouts = [] }
    return before - outcome.findings.count
  }
}
