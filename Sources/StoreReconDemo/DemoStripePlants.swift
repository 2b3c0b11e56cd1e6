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
    }
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
