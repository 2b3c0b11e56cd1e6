import StoreReconCore

/// The realistic world's web subscriptions through Stripe (docs/benchmark.md#the-realistic-world):
/// about one subscriber in eight to ten buys on the web. Each one is a subscription with its invoices, charges,
/// refunds and disputes, written as Stripe's webhook log and list export (`exports/stripe/*.jsonl`, both
/// API shapes: before 2025-03-31 for objects of that time, after for later ones) and as Stripe's
/// itemized balance report (`exports/stripe/reports/*.csv`), with the app's rows that claim it.
///
/// Its random choices come from streams of their own, so the rest of the world is the same with or
/// without it. A few subscriptions carry planted findings (unclaimed, refunded, chargeback, store
/// expired, double billing with the App Store); the rest are clean, controls included: trials,
/// `cancel_at_period_end`, `past_due`, partial refunds, refunds of older invoices, open and won
/// disputes, test mode.
final class DemoStripeWeb {
  /// The realistic world's web store (nil for the classic world).
  static func make(_ options: DemoOptions, builder: DemoBuilder, directory: String) throws -> DemoStripeWeb? {
    guard options.realistic else { return nil }
    return try DemoStripeWeb(
      directory: directory, seed: options.seed, t: builder.t, worldStart: builder.worldStart,
      countries: builder.countries)
  }

  /// The config's Stripe fee (`fees.stripe.bp`); the balance report's fees are this rate, rounded.
  static let feeBasisPoints: Int64 = 290
  /// Objects written from this instant on have the 2025-03-31 API shape (the team migrated then).
  static let migratedAt = CivilDate(year: 2025, month: 5, day: 12).startUTC
  /// Web subscribers per mille of the users who buy nothing in the stores.
  static let webPerMille = 600
  /// Web subscribers per mille of the store subscribers whose store subscriptions all ended.
  static let returnPerMille = 400

  let directory: String
  let seed: UInt64
  let t: Instant
  let worldStart: Instant
  let usCountry: DemoCountry?
  let events: DemoFileWriter
  let objects: DemoFileWriter
  var reports: [String: DemoFileWriter] = [:]
  /// Net per payout (day, currency), for the payouts' own balance transactions.
  var payouts: [DemoStripePayoutKey: Int64] = [:]
  var line = DemoLine()
  var style: DemoRandom
  var planted: [PlantedFinding] = []
  /// Subscriptions written, live.
  var subscriptions = 0

  /// Relative paths of the files.
  static let eventsPath = "exports/stripe/webhook_events.jsonl"
  static let objectsPath = "exports/stripe/objects.jsonl"
  static let reportsFolder = "exports/stripe/reports"

  init(directory: String, seed: UInt64, t: Instant, worldStart: Instant, countries: [DemoCountry]) throws {
    self.directory = directory
    self.seed = seed
    self.t = t
    self.worldStart = worldStart
    usCountry = countries.first { $0.alpha2 == "US" }
    events = try DemoFileWriter(directory: directory, relativePath: DemoStripeWeb.eventsPath)
    objects = try DemoFileWriter(directory: directory, relativePath: DemoStripeWeb.objectsPath)
    style = DemoRandom(seed: seed, stream: 0x5791_9E57_0000_0000)
    try writeCatalog()
  }

  /// Adds the web purchases of `user` (a natural user whose group is `group`) to the group's app rows
  /// and writes their Stripe objects and balance rows.
  func add(_ group: inout DemoGroup, user: DemoUser, index: Int) throws {
    var rng = DemoRandom(seed: seed, stream: 0x5791_9E00_0000_0000 &+ UInt64(index))
    if group.chains.isEmpty {
      guard rng.chance(DemoStripeWeb.webPerMille) else { return }
      try webOnly(&group, user: user, from: worldStart, plant: plant(&rng), &rng)
    } else if let lapsed = lapsedUntil(group) {
      // A store subscriber who left the store and came back on the web (the checkout a team adds).
      guard rng.chance(DemoStripeWeb.returnPerMille), lapsed < t.adding(days: -30) else { return }
      try webOnly(&group, user: user, from: lapsed.adding(days: 1), plant: plant(&rng), &rng)
    } else if rng.chance(6), let overlap = appStoreOverlap(group) {
      try doubleBilled(&group, user: user, apple: overlap, &rng)
    }
  }

  /// 0 clean, or a planted case of ``webOnly(_:user:from:plant:_:)``.
  private func plant(_ rng: inout DemoRandom) -> Int { rng.weighted([9_700, 60, 50, 30, 60, 100]) }

  /// The end of the last paid store period of a group whose store chains are all subscriptions that
  /// ended (its entitlements expired with them); `nil` otherwise.
  private func lapsedUntil(_ group: DemoGroup) -> Instant? {
    var last: Instant?
    for chain in group.chains {
      guard !chain.sandbox, chain.periods.allSatisfy({ $0.product.isSubscription }),
        let end = chain.paidThrough(at: t), end < t
      else { return nil }
      last = max(last ?? end, end)
    }
    return last
  }

  /// A user who buys on the web only: 0 clean, 1 unclaimed, 2 refunded, 3 chargeback, 4 store expired,
  /// 5 test mode (no app rows; not a finding).
  private func webOnly(
    _ group: inout DemoGroup, user: DemoUser, from: Instant, plant: Int, _ rng: inout DemoRandom
  ) throws {
    var sub = subscription(user, &rng, from: from, to: t.adding(days: -1))
    let controls = plant == 0
    renew(&sub, controls: controls, &rng)
    switch plant {
    case 1:
      if sub.paid.isEmpty { break }
      try write(sub, &rng)
      planted.append(finding("orphaned_charge", "unclaimed", sub.id, ""))
      return
    case 2, 3:
      guard let last = sub.invoices.last, !last.open, !last.free, last.paidAt < t.adding(days: -4),
        last.periodEnd > t.adding(days: 2), sub.endedAt == nil
      else { break }
      let at = last.paidAt.adding(ms: 1000 * rng.int64(3_600, 3 * 86_400))
      let n = sub.invoices.count - 1
      if plant == 2 {
        sub.invoices[n].refunds = [moneyBack("re_3", amount: last.amount, at: at, status: "succeeded", &rng)]
      } else {
        var dispute = moneyBack("du_1", amount: last.amount, at: at, status: "lost", &rng)
        dispute.closedAt = min(at.adding(days: rng.int64(20, 60)), t.adding(ms: -60_000)).wholeSeconds
        sub.invoices[n].dispute = dispute
      }
      try claimed(sub, &group, user: user, active: true, &rng)
      planted.append(finding("free_entitlement", "refunded", sub.id, user.id))
      return
    case 4:
      guard let ended = sub.endedAt, ended < t.adding(days: -3), !sub.paid.isEmpty else { break }
      try claimed(sub, &group, user: user, active: true, &rng, openEnded: true)
      planted.append(finding("free_entitlement", "store_expired", sub.id, user.id))
      return
    case 5:
      sub.live = false
      try write(sub, &rng)
      return
    default:
      break
    }
    try claimed(sub, &group, user: user, active: nil, &rng)
  }

  /// A Stripe subscription of the same tier as an App Store subscription the user still pays for:
  /// double billing across stores, reported on the later chain (the web one).
  private func doubleBilled(
    _ group: inout DemoGroup, user: DemoUser, apple: Instant, _ rng: inout DemoRandom
  ) throws {
    var sub = subscription(user, &rng, from: apple, to: apple.adding(days: 2))
    sub.price = .monthly
    sub.trialEnd = nil
    renew(&sub, controls: false, &rng)
    guard sub.endedAt == nil, !sub.paid.isEmpty, sub.invoices.allSatisfy({ !$0.open }) else { return }
    try claimed(sub, &group, user: user, active: true, &rng)
    planted.append(finding("double_billing", "across_stores", sub.id, user.id))
  }

  /// The start of a window of 20 to 60 days before T in which an App Store subscription of the user's
  /// group is paid (not a trial, not revoked or upgraded) for all of it, if there is one.
  private func appStoreOverlap(_ group: DemoGroup) -> Instant? {
    let from = t.adding(days: -20)
    for chain in group.chains where chain.store == .appStore && !chain.sandbox && !chain.familyShared {
      guard let last = chain.periods.last, last.product.isSubscription, !last.isTrial, last.priceMinor > 0,
        last.revocation == nil, !last.isUpgraded, last.commitment == nil, last.start < from.adding(days: -1),
        let end = last.end, end > t.adding(days: 2)
      else { continue }
      guard group.entitlements.contains(where: { $0.storeKey == chain.key && $0.userId == chain.ownerId })
      else { continue }
      return from
    }
    return nil
  }

  private func finding(_ kind: String, _ reason: String, _ key: String, _ userId: String) -> PlantedFinding {
    PlantedFinding(kind: kind, reason: reason, store: .stripe, chainKey: key, userId: userId)
  }

  /// The app's rows for a claimed subscription, and its Stripe objects. `active`: `nil` as the
  /// subscription's state says, `true` an entitlement the app still holds active; `expires` its end
  /// (the current period's end; none when `openEnded`).
  private func claimed(
    _ sub: DemoWebSubscription, _ group: inout DemoGroup, user: DemoUser, active: Bool?,
    _ rng: inout DemoRandom, openEnded: Bool = false
  ) throws {
    try write(sub, &rng)
    let period = sub.currentPeriod
    let status: EntitlementStatus
    var end: Instant? = period.end
    switch sub.status(at: t) {
    case "canceled":
      status = .expired
      end = sub.endedAt
    case "past_due":
      status = .billingRetry
      end = period.start
    default:
      status = .active
    }
    var entitlement = DemoEntitlement(
      entitlementId: "ent_w" + DemoStripeIds.random(11, &rng), userId: user.id,
      productId: sub.price.productName,
      source: .stripe, storeKey: sub.id, status: status, startsAt: sub.created, expiresAt: end,
      updatedAt: min(
        t.adding(ms: -1000), (sub.endedAt ?? sub.invoices.last?.paidAt ?? sub.created).adding(ms: 2000)))
    if active == true {
      entitlement.status = .active
      entitlement.expiresAt = openEnded ? nil : period.end
    }
    group.entitlements.append(entitlement)
    if rng.chance(600) {
      group.credentials.append(
        DemoCredential(
          store: .stripe, storeKey: sub.id, userId: user.id,
          claimedAt: sub.created.adding(ms: rng.int64(500, 90_000))))
    }
  }
}

/// A Stripe payout: the UTC day its balance transactions became available, and their currency.
struct DemoStripePayoutKey: Hashable {
  var day: Int64
  var currency: String
}

extension Instant {
  /// The instant on a whole second (Stripe's timestamps are Unix seconds).
  var wholeSeconds: Instant { Instant(ms: ms.floorDivided(by: 1000).quotient * 1000) }
}
