import StoreReconCore

/// Each planted web subscription, and the pieces it is built from.
extension DemoStripePlants {
  /// Plants `kind` for `user` (`other` is the second claimer of a duplicate claim) and the finding it
  /// must give.
  mutating func plant(
    _ kind: Kind, user: String, other: String, _ group: inout DemoGroup, _ builder: DemoBuilder,
    _ rng: inout DemoRandom
  ) {
    let t = builder.t
    let day = Instant.msPerDay
    var s: DemoStripeSubscription
    var expires: Instant?
    var finding: (kind: String, reason: String, user: String)?
    switch kind {
    case .unclaimed, .lockedOut, .duplicateClaim, .sandbox, .testMode, .cancelAtPeriodEnd:
      let paidThrough = builder.target(&rng, days: 5, 25, .play)
      s = subscription(user, builder, paidThrough: paidThrough, paid: 1 + rng.below(3), trial: false, &rng)
      expires = [.unclaimed, .lockedOut, .testMode].contains(kind) ? nil : paidThrough
      s.live = kind != .sandbox && kind != .testMode
      s.cancelAtPeriodEnd = kind == .cancelAtPeriodEnd
      switch kind {
      case .unclaimed: finding = ("orphaned_charge", "unclaimed", "")
      case .lockedOut: finding = ("orphaned_charge", "locked_out", user)
      case .duplicateClaim: finding = ("duplicate_claim", "multiple_users", other)
      case .sandbox: finding = ("free_entitlement", "sandbox", user)
      default: break
      }
    case .canceled:
      // Canceled at once, mid-period, 9 days before T: access ends there, not at the period's end.
      let paidThrough = builder.target(&rng, days: 15, 20, .play)
      s = subscription(user, builder, paidThrough: paidThrough, paid: 1 + rng.below(3), trial: false, &rng)
      s.status = "canceled"
      s.endedAt = t.adding(ms: -9 * day - 1000 * rng.int64(0, 3600))
      expires = paidThrough
      finding = ("free_entitlement", "store_expired", user)
    case .unpaid, .pastDue, .pastDueInGrace:
      let days = kind == .unpaid ? -20 : (kind == .pastDue ? -12 : -3)
      let paidThrough = builder.target(&rng, days: days - 1, days + 1, .play)
      s = subscription(user, builder, paidThrough: paidThrough, paid: 1 + rng.below(3), trial: false, &rng)
      s.status = kind == .unpaid ? "unpaid" : "past_due"
      s.invoices.append(openInvoice(paidThrough, &rng))
      expires =
        kind == .pastDueInGrace
        ? paidThrough.adding(days: DemoRuleCheck.graceDaysStripe) : DemoCalendar.addMonths(paidThrough, 1)
      if kind != .pastDueInGrace { finding = ("free_entitlement", "store_expired", user) }
    case .refunded, .disputeLost, .partialRefund:
      let paidThrough = builder.target(&rng, days: 10, 20, .play)
      s = subscription(user, builder, paidThrough: paidThrough, paid: 1 + rng.below(3), trial: false, &rng)
      DemoStripePlants.takeBack(&s, dispute: kind == .disputeLost, partial: kind == .partialRefund, &rng)
      expires = paidThrough
      if kind != .partialRefund { finding = ("free_entitlement", "refunded", user) }
    case .acrossAppStore, .acrossPlay:
      let start = builder.target(&rng, days: -12, -8, .play)
      s = subscription(
        user, builder, paidThrough: DemoCalendar.addMonths(start, 1), paid: 1, trial: false, &rng)
      expires = DemoCalendar.addMonths(start, 1)
      finding = ("double_billing", "across_stores", user)
    case .trialing:
      let start = builder.target(&rng, days: -4, -2, .play)
      s = subscription(user, builder, paidThrough: start.adding(days: 7), paid: 0, trial: true, &rng)
      s.status = "trialing"
      expires = start.adding(days: 7)
    }
    if let expires { grant(s, user: user, expires: expires, &group, builder, &rng) }
    if kind == .lockedOut { group.credentials.append(claim(s, user: user, &rng)) }
    if kind == .duplicateClaim {
      var second = claim(s, user: other, &rng)
      second.claimedAt = second.claimedAt.adding(days: 1)
      group.credentials.append(second)
    }
    if let finding {
      group.planted.append(
        PlantedFinding(
          kind: finding.kind, reason: finding.reason, store: .stripe, chainKey: s.id, userId: finding.user))
    }
    group.stripe.append(s)
  }

  /// Money back on the latest charge of `s`, two to three days after it: a lost dispute, a refund of
  /// 30 % (`partial`), or a full refund.
  static func takeBack(
    _ s: inout DemoStripeSubscription, dispute: Bool, partial: Bool, _ rng: inout DemoRandom
  ) {
    let last = s.invoices.count - 1
    let at = s.invoices[last].paidAt.adding(ms: 2 * Instant.msPerDay + 1000 * rng.int64(0, 86_400))
    if dispute {
      s.invoices[last].dispute = .init(
        id: id("dp", &rng), status: "lost", at: at, balanceTransaction: id("txn", &rng))
    } else {
      let amount = s.invoices[last].amount
      s.invoices[last].refunds.append(
        .init(
          id: id("re", &rng), amount: partial ? amount * 3 / 10 : amount, at: at,
          balanceTransaction: id("txn", &rng)))
    }
  }

  /// A web subscription of `user` paid for `paid` months up to `paidThrough` (after a 7-day trial
  /// with `trial`), fewer where the world's history is shorter; the invoice of a renewal is paid about
  /// an hour after its period starts.
  mutating func subscription(
    _ user: String, _ builder: DemoBuilder, paidThrough: Instant, paid: Int, trial: Bool,
    _ rng: inout DemoRandom
  ) -> DemoStripeSubscription {
    var months = paid
    while months > 1 && DemoCalendar.addMonths(paidThrough, -months).adding(days: -8) < builder.worldStart {
      months -= 1
    }
    let anchor = paid == 0 ? paidThrough : DemoCalendar.addMonths(paidThrough, -months)
    let first = trial ? anchor.adding(days: -7) : anchor
    serial += 1
    let basil = shape == .basil || (shape == .mixed && serial % 2 == 0)
    let country = builder.countries[rng.weighted(builder.countryWeights)]
    var s = DemoStripeSubscription(
      id: DemoStripePlants.id("sub", &rng), customer: DemoStripePlants.id("cus", &rng), person: user,
      basil: basil, currency: country.currency, created: first)
    if trial {
      s.trial = (first, anchor)
      var zero = invoice(first, anchor, paidAt: first.adding(ms: 2000), amount: 0, &rng)
      zero.charge = ""
      zero.intent = ""
      s.invoices.append(zero)
    }
    let price = country.price(.monthly)
    for k in 0..<months {
      let start = DemoCalendar.addMonths(anchor, k)
      let delay = k == 0 && !trial ? rng.int64(3, 60) : rng.int64(3_000, 7_200)
      s.invoices.append(
        invoice(
          start, DemoCalendar.addMonths(anchor, k + 1), paidAt: start.adding(ms: 1000 * delay), amount: price,
          &rng))
    }
    return s
  }

  /// An invoice of the period `start`…`end`, paid at `paidAt`.
  func invoice(_ start: Instant, _ end: Instant, paidAt: Instant, amount: Int64, _ rng: inout DemoRandom)
    -> DemoStripeSubscription.Invoice
  {
    DemoStripeSubscription.Invoice(
      id: DemoStripePlants.id("in", &rng), charge: DemoStripePlants.id("ch", &rng),
      intent: DemoStripePlants.id("pi", &rng), balanceTransaction: DemoStripePlants.id("txn", &rng),
      start: start, end: end, paidAt: paidAt, amount: amount)
  }

  /// The open invoice of the month from `start`, which Stripe could not collect.
  func openInvoice(_ start: Instant, _ rng: inout DemoRandom) -> DemoStripeSubscription.Invoice {
    var open = invoice(start, DemoCalendar.addMonths(start, 1), paidAt: start, amount: 0, &rng)
    open.open = true
    open.charge = ""
    open.intent = ""
    return open
  }

  /// The app's rows a correct app writes for `s`: an entitlement active until `expires` and the
  /// user's credential.
  func grant(
    _ s: DemoStripeSubscription, user: String, expires: Instant, _ group: inout DemoGroup,
    _ builder: DemoBuilder, _ rng: inout DemoRandom
  ) {
    let t = builder.t
    let latest = s.invoices.last { !$0.open }?.paidAt ?? s.created
    group.entitlements.append(
      DemoEntitlement(
        entitlementId: "ent_w" + DemoIdentifiers.padded(Int64(serial), 7), userId: user,
        productId: DemoStripeSubscription.product, source: .stripe, storeKey: s.id,
        status: expires > t ? .active : .expired, startsAt: s.created, expiresAt: expires,
        updatedAt: min(latest.adding(ms: 1000 * rng.int64(1, 900)), t.adding(ms: -1000))))
    group.credentials.append(claim(s, user: user, &rng))
  }

  /// A credential of `user` for `s`, a few minutes after it was created.
  func claim(_ s: DemoStripeSubscription, user: String, _ rng: inout DemoRandom) -> DemoCredential {
    DemoCredential(
      store: .stripe, storeKey: s.id, userId: user, linkedStoreKey: nil, orderId: nil,
      claimedAt: s.created.adding(ms: 1000 * rng.int64(20, 600)))
  }

  /// A Stripe id: `prefix_1` and 23 letters and digits.
  static func id(_ prefix: String, _ rng: inout DemoRandom) -> String {
    let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    var bytes = Array((prefix + "_1").utf8)
    for _ in 0..<23 { bytes.append(alphabet[rng.below(alphabet.count)]) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
