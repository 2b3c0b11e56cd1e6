import StoreReconPlatform

/// double_billing (docs/rules.md#double_billing): one person with two or more chains of one tier whose
/// paid periods overlap by more than the tolerance at or before T.
///
/// A chain's person is the first user claiming it (credential or entitlement), else the store's account
/// token. Its paid periods are its paid charges of subscriptions, each from its instant to its end (the
/// record's expiry, else the catalog's period; an upgraded Apple period ends where the next begins),
/// clipped to the chain's paid-through and to T. Chains of one person and tier are taken in the order
/// they started; each later chain is compared with the union of the earlier ones.
package enum DoubleBilling {
  /// A paid period of a chain.
  struct Period {
    var start: Int64
    var end: Int64
    var amount: Int64
    var currency: UInt16
  }

  /// One chain's paid periods of one tier.
  struct Candidate {
    var chain: Int
    var periods: [Period]
    var first: Int64 { periods.map(\.start).min() ?? 0 }
  }

  /// A candidate chain for one tier, keyed for grouping: a hash of (person, tier).
  struct Key {
    var hash: Int
    var chain: Int32
    var tier: Int32
  }

  /// The findings of every person's chains, in no particular order. Most people have one chain of a
  /// tier: the chains are first keyed by a hash of (person, tier) on all cores and sorted by it, and
  /// only runs of equal hashes are grouped exactly and compared.
  static func findings(ledger: Ledger, options: ReconcileOptions, person: (Int) -> String?) -> [Finding] {
    let s = ledger.storage
    let (variantTier, tierNames) = tiers(s.products, options.catalog)
    let count = s.chains.count
    var keys = Parallel.map(count, .balanced(minimum: 20_000)) { range -> [Key] in
      var keys: [Key] = []
      var seen: [Int32] = []
      for c in range {
        let chain = s.chains[c]
        guard chain.production, !chain.pending, !chain.familyShared else { continue }
        seen.removeAll(keepingCapacity: true)
        for k in s.purchases(c) {
          let r = s.record(at: k)
          let tier = variantTier[Int(r.variant)]
          if r.isPaid, tier >= 0, !seen.contains(tier) { seen.append(tier) }
        }
        guard !seen.isEmpty, let who = person(c), !who.isEmpty else { continue }
        for tier in seen { keys.append(Key(hash: groupHash(who, tier), chain: Int32(c), tier: tier)) }
      }
      return keys
    }.flatMap { $0 }
    keys.sort { (a: Key, b: Key) -> Bool in
      if a.hash != b.hash { return a.hash < b.hash }
      return a.chain < b.chain
    }
    var findings: [Finding] = []
    var i = 0
    while i < keys.count {
      var j = i + 1
      while j < keys.count && keys[j].hash == keys[i].hash { j += 1 }
      if j - i > 1 {
        findings += runFindings(keys[i..<j], s, options, tierNames: tierNames, person: person)
      }
      i = j
    }
    return findings
  }

  /// Per product variant its tier's number (-1: a consumable or non-consumable, never a paid period),
  /// and the tiers' names.
  static func tiers(_ products: ProductNames, _ catalog: Catalog) -> ([Int32], [String]) {
    var names: [String] = []
    var numbers: [String: Int32] = [:]
    let variantTier = products.variants.indices.map { v -> Int32 in
      let type = products.productType[v]
      guard type != .consumable, type != .nonConsumable else { return -1 }
      let name = catalog.tier(products.name(ofVariant: UInt32(v)), store: products.variants[v].store)
      if let n = numbers[name] { return n }
      let n = Int32(names.count)
      numbers[name] = n
      names.append(name)
      return n
    }
    return (variantTier, names)
  }

  static func groupHash(_ person: String, _ tier: Int32) -> Int {
    var hasher = Hasher()
    hasher.combine(person)
    hasher.combine(tier)
    return hasher.finalize()
  }

  /// The findings of one run of equal hashes: grouped exactly by (person, tier), then compared.
  static func runFindings(
    _ run: ArraySlice<Key>, _ s: LedgerStorage, _ options: ReconcileOptions, tierNames: [String],
    person: (Int) -> String?
  ) -> [Finding] {
    struct Group: Hashable {
      var person: String
      var tier: Int32
    }
    var groups: [Group: [Candidate]] = [:]
    for key in run {
      let c = Int(key.chain)
      guard let who = person(c), let periods = paidPeriods(c, s, options)[tierNames[Int(key.tier)]],
        !periods.isEmpty
      else { continue }
      groups[Group(person: who, tier: key.tier), default: []].append(Candidate(chain: c, periods: periods))
    }
    var findings: [Finding] = []
    for (group, candidates) in groups where candidates.count > 1 {
      findings += groupFindings(candidates, user: group.person, tier: tierNames[Int(group.tier)], s, options)
    }
    return findings
  }

  /// Chain `c`'s paid periods by tier, clipped to its paid-through and to T.
  static func paidPeriods(_ c: Int, _ s: LedgerStorage, _ options: ReconcileOptions) -> [String: [Period]] {
    let chain = s.chains[c]
    let range = s.purchases(c)
    let t = options.asOf.ms
    var out: [String: [Period]] = [:]
    for k in range {
      let r = s.record(at: k)
      guard r.isPaid else { continue }
      let type = s.products.productType[Int(r.variant)]
      guard type != .consumable, type != .nonConsumable else { continue }
      var end =
        r.expires != PackedRecord.none
        ? r.expires : s.products.period[Int(r.variant)].advance(Instant(ms: r.at)).ms
      if r.isUpgraded {
        for q in (k + 1)..<max(k + 1, range.upperBound) where s.record(at: q).at >= r.at {
          end = min(end, s.record(at: q).at)
          break
        }
      }
      if chain.paidThrough != PackedRecord.none { end = min(end, chain.paidThrough) }
      end = min(end, t)
      guard end > r.at else { continue }
      let tier = options.catalog.tier(s.products.name(ofVariant: r.variant), store: chain.store)
      out[tier, default: []].append(Period(start: r.at, end: end, amount: r.amount, currency: r.currency))
    }
    return out
  }

  /// Sorted, merged intervals of `periods`.
  static func union(_ periods: [(Int64, Int64)]) -> [(Int64, Int64)] {
    var merged: [(Int64, Int64)] = []
    for (a, b) in periods.sorted(by: { $0 < $1 }) {
      if let last = merged.last, a <= last.1 {
        merged[merged.count - 1].1 = max(last.1, b)
      } else {
        merged.append((a, b))
      }
    }
    return merged
  }

  /// The parts of `a` (merged) inside `b` (merged).
  static func intersection(_ a: [(Int64, Int64)], _ b: [(Int64, Int64)]) -> [(Int64, Int64)] {
    var out: [(Int64, Int64)] = []
    for (x0, x1) in a {
      for (y0, y1) in b {
        let lo = max(x0, y0)
        let hi = min(x1, y1)
        if hi > lo { out.append((lo, hi)) }
      }
    }
    return out
  }

  /// The findings of one person's chains of one tier: one per later chain overlapping the earlier ones
  /// by more than the tolerance.
  static func groupFindings(
    _ group: [Candidate], user: String, tier: String, _ s: LedgerStorage, _ options: ReconcileOptions
  ) -> [Finding] {
    let ordered = group.sorted { a, b in
      if a.first != b.first { return a.first < b.first }
      let x = s.chains[a.chain]
      let y = s.chains[b.chain]
      if x.store != y.store { return x.store < y.store }
      return x.key.string(pool: s.pool) < y.key.string(pool: s.pool)
    }
    var findings: [Finding] = []
    for i in 1..<ordered.count {
      let extra = ordered[i]
      let mine = union(extra.periods.map { ($0.start, $0.end) })
      var earlier: [(Int64, Int64)] = []
      var otherStore = false
      for other in ordered[..<i] {
        let theirs = union(other.periods.map { ($0.start, $0.end) })
        if !intersection(mine, theirs).isEmpty && s.chains[other.chain].store != s.chains[extra.chain].store {
          otherStore = true
        }
        earlier += theirs
      }
      let overlap = intersection(mine, union(earlier))
      let overlapMs = overlap.reduce(Int64(0)) { $0 + ($1.1 - $1.0) }
      guard overlapMs > options.toleranceMs, let from = overlap.first?.0, let to = overlap.last?.1 else {
        continue
      }
      findings.append(
        finding(
          extra, user: user, tier: tier, overlap: overlap, ms: overlapMs, from: from, to: to,
          otherStore: otherStore, s))
    }
    return findings
  }

  static func finding(
    _ extra: Candidate, user: String, tier: String, overlap: [(Int64, Int64)], ms: Int64, from: Int64,
    to: Int64, otherStore: Bool, _ s: LedgerStorage
  ) -> Finding {
    let chain = s.chains[extra.chain]
    // The money at stake: the chain's charges whose own period overlaps, in the latest one's currency.
    let overlapping = extra.periods.filter { p in overlap.contains { $0.1 > p.start && $0.0 < p.end } }
    let currency = overlapping.max { $0.start < $1.start }?.currency ?? 0
    var amount: Int64 = 0
    var overflowed = false
    for p in overlapping where p.currency == currency { amount.add(p.amount, overflow: &overflowed) }
    let product =
      chain.currentProduct == UInt32.max ? "" : s.products.names[Int(chain.currentProduct)]
    let days = ms / Instant.msPerDay
    let tenths = ms % Instant.msPerDay * 10 / Instant.msPerDay
    var finding = Finding(
      reason: otherStore ? .acrossStores : .withinStore, store: chain.store,
      chainKey: chain.key.string(pool: s.pool), userId: user, productId: product,
      currency: currency == 0 ? nil : Currency(tableIndex: Int(currency) - 1), amountMinor: amount,
      detail:
        "charged twice for \(tier) between \(Instant(ms: from)) and \(Instant(ms: to)) "
        + "(\(days).\(tenths) days of overlapping paid periods with an earlier chain of this user)")
    finding.overflowed = overflowed
    return finding
  }
}
