import StoreReconCore

/// The demo's web subscriptions through Stripe (docs/rules.md#stripe), put on clean users: a planted
/// problem of every kind and its controls, `count` of each, then a web subscription for every later
/// user without a purchase, app rows or an experiment assignment (about one user in twenty).
///
/// A plant goes to a user without store purchases, app rows or an experiment assignment, except the
/// double billing across stores, which goes to a user paying monthly on the App Store (or Play) for
/// more than 45 days: the web subscription starts about 10 days before T and overlaps.
struct DemoStripePlants {
  /// What a web subscription is planted as: a problem (the finding it gives) or a control (none).
  enum Kind: Int, CaseIterable {
    case unclaimed, lockedOut, canceled, unpaid, pastDue, refunded, disputeLost, duplicateClaim, sandbox
    case acrossAppStore, acrossPlay
    case trialing, pastDueInGrace, cancelAtPeriodEnd, partialRefund, testMode

    /// The double billing across stores, planted on a user of that store.
    var acrossStore: Store? {
      switch self {
      case .acrossAppStore: return .appStore
      case .acrossPlay: return .play
      default: return nil
      }
    }
  }

  let count: Int
  let enabled: Bool
  let shape: DemoStripeShape
  var placed: [Kind: Int] = [:]
  /// Webhook events planted so far: never received (`count`), and the two controls.
  var neverReceived = 0
  var receivedControl = false
  var otherTypeControl = false
  /// Web subscriptions written so far (their shape alternates in the mixed world).
  var serial = 0

  /// One of each kind per 1,000 users where the world has web subscriptions (the classic world from
  /// 1,000 users), in the options' API shape.
  init(_ options: DemoOptions) {
    count = DemoScenario.count(forUsers: options.users)
    enabled = options.writesStripe
    shape = options.stripeShape
  }

  /// The next kind still to plant that fits `group`, if any.
  func nextKind(_ group: DemoGroup, _ builder: DemoBuilder) -> Kind? {
    let across = DemoStripePlants.acrossCandidate(group, builder)
    return Kind.allCases.first { kind in
      (placed[kind] ?? 0) < count
        && (kind.acrossStore == nil ? group.chains.isEmpty : kind.acrossStore == across)
    }
  }

  /// The store of `group`'s one monthly subscription that pays through T and started more than 45 days
  /// before it, if that is all the group has.
  static func acrossCandidate(_ group: DemoGroup, _ builder: DemoBuilder) -> Store? {
    guard group.chains.count == 1, let chain = group.chains.first, !chain.sandbox, !chain.familyShared,
      chain.periods.allSatisfy({ $0.product.tier == .monthly && $0.revocation == nil }),
      let first = chain.periods.first, first.start < builder.t.adding(days: -45)
    else { return nil }
    let periods = builder.check.paidPeriods(chain)
    guard periods.last?.1 == builder.t.ms else { return nil }
    return chain.store
  }

  /// Plants on clean group `group` (user `userIndex`) what is still to plant, or a clean web
  /// subscription.
  mutating func plant(_ group: inout DemoGroup, builder: DemoBuilder, userIndex: Int) {
    guard enabled, group.planted.isEmpty, group.assignments.isEmpty, group.goodwill.isEmpty,
      group.entitlements.allSatisfy({ $0.source.store != nil })
    else { return }
    var rng = DemoRandom(seed: builder.seed, stream: 0x5791_BE00_0000_0000 | UInt64(userIndex))
    let user = builder.userId(userIndex)
    if let kind = nextKind(group, builder) {
      placed[kind, default: 0] += 1
      let other = builder.userId(userIndex == 0 ? 1 : userIndex - 1)
      plant(kind, user: user, other: other, &group, builder, &rng)
    } else if group.chains.isEmpty && group.entitlements.isEmpty {
      natural(user: user, &group, builder, &rng)
      notify(&group, builder: builder, userIndex: userIndex)
    }
  }

  /// The webhook events planted on the natural web subscription just added to `group`
  /// (docs/rules.md#stripe-webhook-events), in turn: `count` `invoice.paid` events of its latest
  /// invoice that the app's log never received (`notification_missing/never_received`); then, as
  /// controls, one the log received and processed, and one `customer.subscription.updated` the log
  /// never received (a type the app's endpoint is not enabled for: Stripe never sent it to the app).
  /// Only a subscription paying now, whose latest invoice was paid 1 to 28 days before T, is used.
  mutating func notify(_ group: inout DemoGroup, builder: DemoBuilder, userIndex: Int) {
    let t = builder.t
    guard let n = group.stripe.indices.last, group.stripe[n].live, group.stripe[n].endedAt == nil,
      let last = group.stripe[n].invoices.last, last.isCharge, last.paidAt < t.adding(days: -1),
      last.paidAt > t.adding(days: -28)
    else { return }
    let received: Bool
    let type: String
    if neverReceived < count {
      neverReceived += 1
      (received, type) = (false, "invoice.paid")
    } else if !receivedControl {
      receivedControl = true
      (received, type) = (true, "invoice.paid")
    } else if !otherTypeControl {
      otherTypeControl = true
      (received, type) = (false, "customer.subscription.updated")
    } else {
      return
    }
    // A stream of its own, so the world's other choices stay as they were.
    var rng = DemoRandom(seed: builder.seed, stream: 0x57E7_0000_0000_0000 | UInt64(userIndex))
    let created = last.paidAt.adding(ms: 1000 * rng.int64(1, 5))
    var event = DemoStripeSubscription.Event(
      id: DemoStripePlants.id("evt", &rng), type: type, created: created)
    if received {
      let at = created.adding(ms: 1000 * rng.int64(1, 3))
      event.received = (at, at.adding(ms: 1000 * rng.int64(1, 4)))
    } else if type == "invoice.paid" {
      group.planted.append(
        PlantedFinding(
          kind: "notification_missing", reason: "never_received", store: .stripe,
          chainKey: group.stripe[n].id, userId: ""))
    }
    group.stripe[n].events.append(event)
  }

  /// A clean web subscriber: paying now, or gone at the end of a paid period (the app's entitlement
  /// expired with it).
  mutating func natural(
    user: String, _ group: inout DemoGroup, _ builder: DemoBuilder, _ rng: inout DemoRandom
  ) {
    let t = builder.t
    let churned = rng.chance(250)
    let paidThrough =
      churned ? builder.target(&rng, days: -150, -5, .play) : builder.target(&rng, days: 2, 25, .play)
    var s = subscription(
      user, builder, paidThrough: paidThrough, paid: 1 + rng.below(5), trial: rng.chance(300), &rng)
    s.natural = true
    if churned {
      s.status = "canceled"
      s.endedAt = paidThrough
    }
    grant(s, user: user, expires: paidThrough, &group, builder, &rng)
    if churned, let last = group.entitlements.indices.last {
      group.entitlements[last].status = .expired
      group.entitlements[last].updatedAt = min(paidThrough.adding(ms: 60_000), t.adding(ms: -1000))
    }
    group.stripe.append(s)
  }
}
