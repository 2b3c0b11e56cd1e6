import StoreReconCore

/// docs/rules.md's credit and double-billing rules applied to one group of the demo world, from the
/// demo's own chains and rows (not the ledger's).
extension DemoRuleCheck {
  /// The config's `creditGraceHours`.
  static let creditGraceHours = 6

  /// The first user claiming `chain` (credential or entitlement, earliest claim first), if any.
  func firstClaimer(_ chain: DemoChain, _ group: DemoGroup) -> String? {
    var claims: [(at: Instant, user: String)] = []
    for c in group.credentials where c.store == chain.store {
      let byOrder = chain.store == .play && (c.orderId.map { chain.isNamed(by: $0) } ?? false)
      if chain.isNamed(by: c.storeKey) || byOrder { claims.append((c.claimedAt, c.userId)) }
    }
    for e in group.entitlements where e.source.store == chain.store {
      if let key = e.storeKey, chain.isNamed(by: key) { claims.append((e.startsAt, e.userId)) }
    }
    return claims.min { ($0.at, $0.user) < ($1.at, $1.user) }?.user
  }

  /// uncredited_purchase, double_credit, credit_not_reversed and orphan_credit.
  func creditFindings(_ group: DemoGroup) -> [PlantedFinding] {
    var result: [PlantedFinding] = []
    let grace = Int64(DemoRuleCheck.creditGraceHours) * DemoCalendar.msPerHour
    let credited = group.credits.filter { $0.creditedAt <= t }.sorted {
      ($0.creditedAt, $0.creditId) < ($1.creditedAt, $1.creditId)
    }
    func standing(_ c: DemoCredit) -> Bool { c.reversedAt.map { $0 > t } ?? true }
    var production = Set<String>()
    var sandbox = Set<String>()
    for chain in group.chains {
      for p in chain.periods where p.product.tier == .coins && p.start <= t {
        let key = "\(chain.store.rawValue)|\(p.transactionId)"
        if chain.sandbox {
          sandbox.insert(key)
          continue
        }
        production.insert(key)
        func finding(_ kind: String, _ reason: String, _ user: String) {
          result.append(
            PlantedFinding(
              kind: kind, reason: reason, store: chain.store, chainKey: p.transactionId, userId: user))
        }
        let named = credited.filter { $0.store == chain.store && $0.transactionId == p.transactionId }
        let live = named.filter(standing)
        let charged = p.priceMinor > 0 && !chain.familyShared
        if p.isRevoked(at: t) {
          if charged, let first = live.first {
            finding("credit_not_reversed", "refund_not_reversed", first.userId)
          }
          continue
        }
        guard charged, !chain.pending else { continue }
        if live.isEmpty {
          if p.start.adding(ms: grace) < t {
            let user = named.first { !standing($0) }?.userId ?? firstClaimer(chain, group) ?? ""
            finding("uncredited_purchase", "not_credited", user)
          }
        } else if live.count > 1 {
          finding("double_credit", "credited_twice", live[0].userId)
        } else if live[0].quantity > DemoProduct.coinUnits * Int64(p.quantity) {
          finding("double_credit", "over_credited", live[0].userId)
        }
      }
    }
    var seen = Set<String>()
    for c in credited where standing(c) {
      let key = "\(c.store.rawValue)|\(c.transactionId)"
      guard !production.contains(key), seen.insert(key + "|" + c.userId).inserted else { continue }
      result.append(
        PlantedFinding(
          kind: "orphan_credit", reason: sandbox.contains(key) ? "sandbox_credit" : "unknown_transaction",
          store: c.store, chainKey: c.transactionId, userId: c.userId))
    }
    return result
  }

  /// A chain's paid subscription periods as of T, clipped to its paid-through and to T.
  func paidPeriods(_ chain: DemoChain) -> [(Int64, Int64)] {
    guard !chain.sandbox, !chain.pending, !chain.familyShared else { return [] }
    let paidThrough = chain.paidThrough(at: t)
    var out: [(Int64, Int64)] = []
    let backing = chain.periods.indices.filter { chain.periods[$0].product.isSubscription }
    for (position, i) in backing.enumerated() {
      let p = chain.periods[i]
      guard p.start <= t, p.priceMinor > 0, !p.isTrial, !p.isRevoked(at: t), let months = p.product.months
      else { continue }
      var end =
        chain.store == .appStore
        ? (p.end ?? DemoCalendar.addMonths(p.start, months)) : DemoCalendar.addMonths(p.start, months)
      if p.isUpgraded, position + 1 < backing.count {
        end = min(end, chain.periods[backing[position + 1]].start)
      }
      if let paidThrough { end = min(end, paidThrough) }
      end = min(end, t)
      if end > p.start { out.append((p.start.ms, end.ms)) }
    }
    return out
  }

  /// double_billing: one person's chains of one tier (every demo subscription is Pro) whose paid
  /// periods overlap by more than the tolerance.
  func doubleBillingFindings(_ group: DemoGroup) -> [PlantedFinding] {
    var byPerson: [String: [(store: Store, key: String, periods: [(Int64, Int64)])]] = [:]
    for chain in group.chains {
      let periods = paidPeriods(chain)
      guard !periods.isEmpty, let person = firstClaimer(chain, group) ?? chain.accountToken else { continue }
      byPerson[person, default: []].append((chain.store, chain.key, periods))
    }
    for s in group.stripe {
      let periods = s.paidPeriods(at: t)
      guard !periods.isEmpty else { continue }
      byPerson[stripePerson(s, group), default: []].append((.stripe, s.id, periods))
    }
    var result: [PlantedFinding] = []
    for (person, chains) in byPerson where chains.count > 1 {
      let ordered = chains.sorted { a, b in
        let x = a.periods.map(\.0).min() ?? 0
        let y = b.periods.map(\.0).min() ?? 0
        return x != y ? x < y : (a.store.rawValue, a.key) < (b.store.rawValue, b.key)
      }
      for i in 1..<ordered.count {
        let mine = DemoRuleCheck.merged(ordered[i].periods)
        var earlier: [(Int64, Int64)] = []
        var otherStore = false
        for other in ordered[..<i] {
          let theirs = DemoRuleCheck.merged(other.periods)
          if !DemoRuleCheck.common(mine, theirs).isEmpty && other.store != ordered[i].store {
            otherStore = true
          }
          earlier += theirs
        }
        let overlap = DemoRuleCheck.common(mine, DemoRuleCheck.merged(earlier))
        guard overlap.reduce(Int64(0), { $0 + ($1.1 - $1.0) }) > tolerance else { continue }
        result.append(
          PlantedFinding(
            kind: "double_billing", reason: otherStore ? "across_stores" : "within_store",
            store: ordered[i].store, chainKey: ordered[i].key, userId: person))
      }
    }
    return result
  }

  /// `intervals` sorted and merged.
  static func merged(_ intervals: [(Int64, Int64)]) -> [(Int64, Int64)] {
    var out: [(Int64, Int64)] = []
    for (a, b) in intervals.sorted(by: { $0 < $1 }) {
      if let last = out.last, a <= last.1 {
        out[out.count - 1].1 = max(last.1, b)
      } else {
        out.append((a, b))
      }
    }
    return out
  }

  /// The non-empty pieces both merged lists cover.
  static func common(_ a: [(Int64, Int64)], _ b: [(Int64, Int64)]) -> [(Int64, Int64)] {
    a.flatMap { x in
      b.compactMap { y in max(x.0, y.0) < min(x.1, y.1) ? (max(x.0, y.0), min(x.1, y.1)) : nil }
    }
  }
}
