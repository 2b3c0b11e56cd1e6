import StoreReconCore

/// Builds the world's groups: shared helpers for periods, chains and clean app rows.
///
/// Scenarios live in extensions (`+Natural`, `+Planted`, `+Traps`). The builder owns the identifier
/// counters, so groups must be built in user order for the world to be reproducible.
final class DemoBuilder {
  /// The as-of instant T (start of the day after `asOf`, UTC).
  let t: Instant
  /// Earliest instant a purchase can have.
  let worldStart: Instant
  /// The generator seed.
  let seed: UInt64
  /// Countries, and their shares of users.
  let countries: [DemoCountry]
  let countryWeights: [Int]
  /// The rules the truth must follow.
  let check: DemoRuleCheck
  /// The world's identifier counters.
  var ids = DemoIdentifiers()
  /// The realistic world (``DemoOptions/realistic``): other user ids, longer history, more products.
  let realistic: Bool

  /// The price experiment.
  static let experimentId = "paywall-price-2026-09"
  /// Enrolment window of the experiment: 2026-09-01 through 2026-10-15 (UTC).
  let experimentStart = CivilDate(year: 2026, month: 9, day: 1).startUTC
  let experimentEnd = CivilDate(year: 2026, month: 10, day: 16).startUTC

  init(options: DemoOptions, countries: [DemoCountry]) {
    t = options.asOf.next.startUTC
    realistic = options.realistic
    // The realistic world's history starts 4½ years back (subscribers with 40+ monthly renewals).
    let january = CivilDate(year: realistic ? 2022 : 2026, month: realistic ? 6 : 1, day: 1).startUTC
    worldStart = min(january, t.adding(days: realistic ? -1600 : -180))
    seed = options.seed
    self.countries = countries
    countryWeights = countries.map(\.weight)
    check = DemoRuleCheck(t: t)
  }

  /// The user at `index`, with a country drawn from the user's own generator.
  func user(_ index: Int, _ rng: inout DemoRandom) -> DemoUser {
    DemoUser(
      index: index, id: userId(index),
      uuid: DemoIdentifiers.accountUUID(seed: seed, userIndex: index),
      country: countries[rng.weighted(countryWeights)])
  }

  /// The app's user id of the user at `index`.
  func userId(_ index: Int) -> String {
    realistic ? DemoIdentifiers.realisticUserId(seed: seed, index: index) : DemoIdentifiers.userId(index)
  }

  // MARK: - Instants

  /// A random instant in `[from, to)`: millisecond precision for Apple, whole seconds for Play.
  func instant(_ rng: inout DemoRandom, from: Instant, to: Instant, _ store: Store) -> Instant {
    guard to.ms > from.ms + 1000 else { return from }
    let value = rng.int64(from.ms, to.ms)
    return Instant(ms: store == .play ? value - value % 1000 : value)
  }

  /// An instant `lower…upper` days from T on a day of month ≤ 28 (so whole months count back exactly).
  func target(_ rng: inout DemoRandom, days lower: Int, _ upper: Int, _ store: Store) -> Instant {
    let base = DemoCalendar.date(t).daysSinceEpoch
    let eligible = (lower...upper).filter { CivilDate(daysSinceEpoch: base + Int64($0)).day <= 28 }
    let day = eligible.isEmpty ? lower : rng.pick(eligible)
    let start = t.adding(days: Int64(day))
    return instant(&rng, from: start, to: start.adding(days: 1), store)
  }

  // MARK: - Periods

  /// Subscription periods: an optional 7-day free trial from `firstStart`, then `paidCount` paid
  /// periods of whole calendar months from the trial's end (or from `firstStart`).
  func subscriptionPeriods(
    _ product: DemoProduct, _ country: DemoCountry, firstStart: Instant, trial: Bool, paidCount: Int
  ) -> [DemoPeriod] {
    var periods: [DemoPeriod] = []
    var anchor = firstStart
    if trial {
      anchor = firstStart.adding(days: 7)
      periods.append(
        DemoPeriod(product: product, start: firstStart, end: anchor, isTrial: true, priceMinor: 0))
    }
    let months = product.months ?? 1
    let price = country.price(product.tier)
    for k in 0..<paidCount {
      periods.append(
        DemoPeriod(
          product: product, start: DemoCalendar.addMonths(anchor, k * months),
          end: DemoCalendar.addMonths(anchor, (k + 1) * months), priceMinor: price))
    }
    return periods
  }

  /// How many whole periods from `anchor` start before T.
  func periodsBeforeT(anchor: Instant, months: Int) -> Int {
    var count = 0
    while DemoCalendar.addMonths(anchor, count * months) < t { count += 1 }
    return count
  }

  /// A subscription that starts at a random instant (earlier starts more likely, as an app's cohorts
  /// pile up) and renews until it churns (3 % per renewal) or reaches T. With `requirePaid`, at least
  /// one paid period (no unconverted trial). With `start`, the first purchase is at that instant.
  func randomSubscription(
    _ product: DemoProduct, _ country: DemoCountry, _ rng: inout DemoRandom, store: Store,
    to: Instant? = nil, trialPerMille: Int = 350, requirePaid: Bool = false, churnPerMille: Int = 30,
    start: Instant? = nil
  ) -> [DemoPeriod] {
    let latest = min(to ?? t, requirePaid ? t.adding(days: -9) : t.adding(ms: -DemoCalendar.msPerHour))
    let firstStart: Instant
    if let start {
      firstStart = start
    } else {
      let a = instant(&rng, from: worldStart, to: latest, store)
      let b = instant(&rng, from: worldStart, to: latest, store)
      firstStart = min(a, b)
    }
    let trial = rng.chance(trialPerMille)
    let anchor = trial ? firstStart.adding(days: 7) : firstStart
    let maxPaid = periodsBeforeT(anchor: anchor, months: product.months ?? 1)
    var paid = 0
    if maxPaid > 0 && (!trial || requirePaid || rng.chance(600)) {
      paid = 1
      while paid < maxPaid && !rng.chance(churnPerMille) { paid += 1 }
    }
    return subscriptionPeriods(product, country, firstStart: firstStart, trial: trial, paidCount: paid)
  }

  /// Subscription periods whose last one ends exactly at `paidThrough` (a day of month ≤ 28): at least
  /// `minimumPaid` paid periods, plus a random number of earlier ones that fit after the world's start.
  func periodsEnding(
    at paidThrough: Instant, _ product: DemoProduct, _ country: DemoCountry, _ rng: inout DemoRandom,
    trial: Bool = false, minimumPaid: Int = 1
  ) -> [DemoPeriod] {
    let months = product.months ?? 1
    let trialDays: Int64 = trial ? 7 : 0
    var fit = 0
    while fit < 24,
      DemoCalendar.addMonths(paidThrough, -(fit + 1) * months).adding(days: -trialDays) >= worldStart
    {
      fit += 1
    }
    let count = fit <= minimumPaid ? minimumPaid : minimumPaid + rng.below(fit - minimumPaid + 1)
    let anchor = DemoCalendar.addMonths(paidThrough, -count * months)
    return subscriptionPeriods(
      product, country, firstStart: anchor.adding(days: -trialDays), trial: trial, paidCount: count)
  }

  /// A one-time purchase (lifetime unlock, or `quantity` consumables).
  func oneTimePeriod(_ product: DemoProduct, _ country: DemoCountry, at start: Instant, quantity: Int = 1)
    -> DemoPeriod
  {
    DemoPeriod(
      product: product, start: start, end: nil, quantity: quantity,
      priceMinor: country.price(product.tier) * Int64(quantity))
  }

  // MARK: - Chains

  /// An App Store chain: transaction ids are issued here; the first is the chain key.
  func appleChain(
    _ user: DemoUser, _ periods: [DemoPeriod], _ rng: inout DemoRandom, tokenPerMille: Int = 920
  )
    -> DemoChain
  {
    var periods = periods
    for i in periods.indices {
      periods[i].transactionId = ids.appleTransactionId(&rng)
      if periods[i].product.isSubscription { periods[i].webOrderLineItemId = ids.webOrderLineItemId(&rng) }
    }
    let token = rng.chance(tokenPerMille) ? user.uuid : nil
    return DemoChain(
      store: .appStore, key: periods.first?.transactionId ?? "", ownerId: user.id, accountToken: token,
      country: user.country, periods: periods)
  }

  /// A Play chain: a first order id (`..N` for later orders) and, with `resource`, a purchase token
  /// and a subscriptionsv2 resource; without one the first order id is the chain key.
  func playChain(
    _ user: DemoUser, _ periods: [DemoPeriod], _ rng: inout DemoRandom, resource: Bool = true,
    accountPerMille: Int = 950
  ) throws -> DemoChain {
    var periods = periods
    let base = try ids.playOrder(&rng)
    for i in periods.indices { periods[i].orderId = i == 0 ? base : base + ".." + String(i - 1) }
    let token = resource ? ids.playToken(&rng) : nil
    var chain = DemoChain(
      store: .play, key: token ?? base, ownerId: user.id,
      accountToken: rng.chance(accountPerMille) ? user.id : nil,
      country: user.country, periods: periods)
    chain.token = token
    chain.orderBase = base
    chain.hasResource = resource
    chain.autoRenew = rng.chance(850)
    return chain
  }

  // MARK: - App rows

  /// The key the app stored for a chain: Apple the original transaction id; Play mostly the token,
  /// sometimes the first order id or the latest order id (all name the chain).
  func storeKey(for chain: DemoChain, _ rng: inout DemoRandom) -> String {
    guard chain.store == .play else { return chain.key }
    let roll = rng.below(10)
    if chain.token != nil && roll < 8 { return chain.key }
    if roll % 2 == 0 { return chain.orderBase }
    return chain.periods.last?.orderId ?? chain.orderBase
  }

  /// A credential for `chain` claimed by `userId` shortly after the chain's first purchase.
  func credential(_ chain: DemoChain, userId: String, storeKey: String, _ rng: inout DemoRandom)
    -> DemoCredential
  {
    let first = chain.periods.first?.start ?? t
    return DemoCredential(
      store: chain.store, storeKey: storeKey, userId: userId, linkedStoreKey: chain.linkedToken,
      orderId: chain.store == .play ? chain.orderBase : nil,
      claimedAt: first.adding(ms: 1000 * rng.int64(2, 600)))
  }

  /// The entitlement a correct app holds for `chain` at T: the current product, active until the
  /// paid-through (no end for a one-time unlock), or expired at it. `nil` for consumables.
  func cleanEntitlement(_ chain: DemoChain, userId: String, storeKey: String, _ rng: inout DemoRandom)
    -> DemoEntitlement?
  {
    guard let latest = chain.latest(at: t), let first = chain.periods.first else { return nil }
    let paidThrough = chain.paidThrough(at: t) ?? latest.start
    let forever = paidThrough >= Instant.distantFuture
    let source: EntitlementSource = chain.store == .play ? .play : .appStore
    return DemoEntitlement(
      entitlementId: ids.entitlementId(), userId: userId, productId: latest.product.name, source: source,
      storeKey: storeKey, status: forever || paidThrough > t ? .active : .expired, startsAt: first.start,
      expiresAt: forever ? nil : paidThrough,
      updatedAt: min(latest.start.adding(ms: 1000 * rng.int64(1, 900)), t.adding(ms: -1000)))
  }

  /// The credits a correct app writes for `chain`'s consumable purchases: one each, 40 seconds after
  /// the purchase, for the catalog's units times the purchase's quantity.
  func cleanCredits(_ chain: DemoChain, userId: String) -> [DemoCredit] {
    chain.periods.filter { $0.product.tier == .coins }.map { p in
      DemoCredit(
        creditId: ids.creditId(), userId: userId, store: chain.store, transactionId: p.transactionId,
        productId: p.product.name, quantity: DemoProduct.coinUnits * Int64(p.quantity),
        creditedAt: p.start.adding(ms: 40_000), reversedAt: nil)
    }
  }

  /// Adds `chain` to `group` with the rows a correct app writes: a credential, credits for its
  /// consumables, and an entitlement naming the chain (none for consumables). Returns the entitlement's index, if any.
  @discardableResult
  func addClean(_ chain: DemoChain, userId: String, to group: inout DemoGroup, _ rng: inout DemoRandom)
    -> Int?
  {
    let key = storeKey(for: chain, &rng)
    group.chains.append(chain)
    group.credentials.append(credential(chain, userId: userId, storeKey: key, &rng))
    group.credits += cleanCredits(chain, userId: userId)
    guard let entitlement = cleanEntitlement(chain, userId: userId, storeKey: key, &rng) else { return nil }
    group.entitlements.append(entitlement)
    return group.entitlements.count - 1
  }
}
