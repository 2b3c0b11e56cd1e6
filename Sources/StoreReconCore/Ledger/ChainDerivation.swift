import StoreReconPlatform

/// Derives a chain's state as of T from its records: docs/rules.md#terms.
///
/// Works on the packed ledger: each chain's record numbers are filtered to T and put in purchase order
/// in place, and the derived fields are written into its ``ChainState``. Chains are independent, so
/// they are derived on as many threads as the machine offers, with the same result.
enum ChainDerivation {
  /// Derives every chain of `storage`; returns the number of chains left empty (none of whose records
  /// is at or before T).
  @discardableResult
  static func deriveAll(_ storage: LedgerStorage, asOf t: Instant) -> Int {
    let count = storage.chains.count
    let products = storage.products
    let pool = storage.pool
    let statuses = storage.statuses
    let rare = storage.rare
    var revocations: [([Int32: Chain.Revocation], Int64, Int)] = []
    do {
      storage.withDerivationSlots { records, order, chains in
        let context = Context(
          records: records, order: order, chains: chains, statuses: statuses, rare: rare, pool: pool,
          types: products.productType, periods: products.period, variants: products.variants, t: t.ms,
          emptyName: products.findName("") ?? UInt32.max)
        context.earningsReturns = storage.earningsReturns
        context.noticeSources = storage.noticeSources
        revocations = Parallel.map(count, .even(minimum: 50_000)) { range in
          var found: [Int32: Chain.Revocation] = [:]
          // In blocks: first every chain's records are read in a tight loop (their cache misses
          // overlap), then the chains are derived from the cache.
          var touched: Int64 = 0
          var empty = 0
          var from = range.lowerBound
          while from < range.upperBound {
            let to = min(from + BlockSize.lookups, range.upperBound)
            for c in from..<to { touched &+= context.touch(c) }
            for c in from..<to {
              if let revocation = context.derive(c) { found[Int32(c)] = revocation }
              if chains[c].isEmpty { empty += 1 }
            }
            from = to
          }
          return (found, touched, empty)
        }
      }
    }
    var all: [Int32: Chain.Revocation] = [:]
    var empty = 0
    for (part, touched, emptyInPart) in revocations {
      all.merge(part) { a, _ in a }
      storage.touched &+= touched
      empty += emptyInPart
    }
    storage.revocations = all
    return empty
  }

  /// What deriving one chain reads and writes (each chain writes only its own slots).
  final class Context: @unchecked Sendable {
    let records: LedgerSlots<PackedRecord>
    let order: LedgerSlots<UInt32>
    let chains: LedgerSlots<ChainState>
    let statuses: [StatusRecord]
    let rare: [Int: RareFields]
    let pool: TextPool
    let types: [ProductType]
    let periods: [BillingPeriod]
    let variants: [ProductNames.Variant]
    let t: Int64
    /// Play orders an earnings report refunded at or before T (``LedgerStorage/earningsReturns``).
    var earningsReturns: [CompactID: Int64] = [:]
    /// App Store transactions a REFUND notification names (``LedgerStorage/noticeSources``).
    var noticeSources: [CompactID: [String]] = [:]

    @inline(__always) func record(_ k: Int) -> PackedRecord { records[Int(order[k])] }
    @inline(__always) func type(_ r: PackedRecord) -> ProductType { types[Int(r.variant)] }

    @inline(__always)
    func revokedAt(_ k: Int) -> Int64? {
      let n = Int(order[k])
      guard records[n].flags.contains(.rare), let at = rare[n]?.revokedAt else { return nil }
      return at.ms
    }

    /// The commitment the purchase at position `k` states (Apple `MONTHLY` billing plan), if any.
    @inline(__always)
    func commitment(_ k: Int) -> Commitment? {
      let n = Int(order[k])
      guard records[n].flags.contains(.rare) else { return nil }
      return rare[n]?.commitment
    }

    @inline(__always)
    func renewal(_ id: PackedID) -> Int {
      switch id.kind {
      case .playOrder: return id.playRenewal ?? -1
      case .pooled: return PlayOrderId.renewal(pool.string(id.poolID)) ?? -1
      case .decimal, .empty: return -1
      }
    }

    /// Purchases oldest first; a Play renewal `..N` after its first order on equal instants; then
    /// transaction id; then arrival.
    @inline(__always)
    func purchaseLess(_ a: UInt32, _ b: UInt32) -> Bool {
      ChainDerivation.purchaseLess(a, b, records, pool)
    }

    /// Refunds and voids by instant, then transaction id, then arrival.
    @inline(__always)
    func eventLess(_ a: UInt32, _ b: UInt32) -> Bool {
      let x = records[Int(a)]
      let y = records[Int(b)]
      if x.at != y.at { return x.at < y.at }
      let c = PackedID.compare(x.transactionId, y.transactionId, pool: pool)
      if c != 0 { return c < 0 }
      return a < b
    }

    func sortSegment(_ from: Int, _ to: Int, by less: (UInt32, UInt32) -> Bool) {
      guard to - from > 1 else { return }
      var sorted = true
      for k in (from + 1)..<to where less(order[k], order[k - 1]) {
        sorted = false
        break
      }
      if sorted { return }
      if to - from <= 16 {
        for k in (from + 1)..<to {
          let v = order[k]
          var j = k
          while j > from && less(v, order[j - 1]) {
            order[j] = order[j - 1]
            j -= 1
          }
          order[j] = v
        }
      } else {
        var slice = order.elements(from..<to)
        slice.sort(by: less)
        for (i, v) in slice.enumerated() { order[from + i] = v }
      }
    }

    /// Reads chain `c`'s records and resource (so that deriving it soon after finds them in the cache);
    /// returns a number that depends on what was read.
    @inline(__always)
    func touch(_ c: Int) -> Int64 {
      let chain = chains[c]
      let end = chain.start + Int(chain.purchaseCount) + Int(chain.refundCount) + Int(chain.voidCount)
      var sum: Int64 = 0
      // A record may span two cache lines: read both ends.
      for k in chain.start..<end {
        let n = Int(order[k])
        sum &+= records[n].at &+ Int64(records[n].flags.rawValue)
      }
      if chain.status >= 0 {
        // A resource spans two cache lines: read both ends.
        let status = Int(chain.status)
        sum &+= statuses[status].at &+ Int64(statuses[status].token)
      }
      return sum
    }

    /// Derives chain `c`; returns its revocation, if any.
    func derive(_ c: Int) -> Chain.Revocation? {
      var chain = chains[c]
      // Keep only what happened at or before T, purchases then refunds then voids.
      var w = chain.start
      var k = chain.start
      @inline(__always) func keep(_ n: UInt32) -> UInt32 {
        var kept: UInt32 = 0
        for _ in 0..<Int(n) {
          let v = order[k]
          k += 1
          if records[Int(v)].at <= t {
            order[w] = v
            w += 1
            kept += 1
          } else if records[Int(v)].flags.revenueSlot >= 0 {
            records[Int(v)].flags.setRevenueSlot(-1)
          }
        }
        return kept
      }
      chain.purchaseCount = keep(chain.purchaseCount)
      chain.refundCount = keep(chain.refundCount)
      chain.voidCount = keep(chain.voidCount)
      let p0 = chain.start
      let p1 = p0 + Int(chain.purchaseCount)
      let r1 = p1 + Int(chain.refundCount)
      let v1 = r1 + Int(chain.voidCount)
      sortSegment(p0, p1, by: purchaseLess)
      sortSegment(p1, r1, by: eventLess)
      sortSegment(r1, v1, by: eventLess)
      if chain.status >= 0 {
        let s = statuses[Int(chain.status)]
        if s.at != Instant.distantPast.ms && s.at > t { chain.status = -1 }
      }
      let status: StatusRecord? = chain.status >= 0 ? statuses[Int(chain.status)] : nil

      // Account token and original purchase: the resource's, else the first purchase's (the builder
      // set the first purchase's, as of T).
      if let status, status.token != 0 { chain.accountToken = status.token }
      var earliest = chain.originalPurchaseAt
      if let status, status.at != Instant.distantPast.ms {
        earliest = earliest == PackedRecord.none ? status.at : min(earliest, status.at)
      }
      chain.originalPurchaseAt = earliest

      let revocation: Chain.Revocation?
      if chain.store == .play {
        revocation = derivePlay(&chain, status: status, p0, p1, r1, v1)
      } else {
        revocation = deriveAppStore(&chain, p0, p1)
      }
      if revocation != nil { chain.flags.insert(.revoked) }
      // A Play installments plan (its resource states the counts): docs/rules.md#commitment-plans.
      if let status, status.installments != 0 { chain.flags.insert(.commitment) }
      // What counts in revenue: production charges and Play refund rows of production, non-pending chains.
      let counts = chain.production && !chain.pending
      let slot = LedgerStorage.slot(chain.store)
      for q in p0..<v1 {
        let n = Int(order[q])
        let r = records[n]
        let kind = r.flags.rawValue & 3
        let revenue =
          counts && r.isProduction && (kind == 1 || (kind == 0 && !r.isFamilyShared && r.amount > 0))
        records[n].flags.setRevenueSlot(revenue ? slot : -1)
      }
      chains[c] = chain
      return revocation
    }

    // MARK: App Store (and any store whose records carry their own periods)

    func deriveAppStore(_ chain: inout ChainState, _ p0: Int, _ p1: Int) -> Chain.Revocation? {
      var production = false
      var allFamily = p1 > p0
      var lastBacking = -1
      for q in p0..<p1 {
        let r = record(q)
        if r.isProduction { production = true }
        if !r.isFamilyShared { allFamily = false }
        if type(r) != .consumable { lastBacking = q }
      }
      chain.flags = []
      if production { chain.flags.insert(.production) }
      if allFamily { chain.flags.insert(.familyShared) }
      let current = lastBacking >= 0 ? lastBacking : (p1 > p0 ? p1 - 1 : -1)
      chain.currentProduct = current >= 0 ? variants[Int(record(current).variant)].name : UInt32.max

      var paidThrough = PackedRecord.none
      for q in p0..<p1 {
        let purchase = record(q)
        let kind = type(purchase)
        guard kind != .consumable else { continue }
        if let at = revokedAt(q), at <= t { continue }
        var end: Int64
        if kind == .nonConsumable {
          end = Instant.distantFuture.ms
        } else if purchase.expires != PackedRecord.none {
          end = purchase.expires
        } else if commitment(q) != nil {
          // A payment of a commitment plan buys one month, whatever the product's own (yearly) period.
          end = BillingPeriod.oneMonth.advance(Instant(ms: purchase.at)).ms
        } else {
          end = periods[Int(purchase.variant)].advance(Instant(ms: purchase.at)).ms
        }
        if purchase.isUpgraded {
          // An upgraded transaction stops backing access when the next transaction of its chain starts.
          for next in (q + 1)..<max(q + 1, p1) where type(record(next)) != .consumable {
            if record(next).at >= purchase.at {
              end = min(end, record(next).at)
              break
            }
          }
        }
        paidThrough = paidThrough == PackedRecord.none ? end : max(paidThrough, end)
      }
      chain.paidThrough = paidThrough
      if lastBacking >= 0, commitment(lastBacking) != nil { chain.flags.insert(.commitment) }
      if lastBacking >= 0, record(lastBacking).flags.contains(.noGrace) { chain.flags.insert(.noGrace) }

      var revocation: Chain.Revocation?
      if lastBacking >= 0, let at = revokedAt(lastBacking), at <= t {
        let latest = record(lastBacking)
        let fields = rare[Int(order[lastBacking])]
        let type = fields?.revocationTypeUpper
        if type == "FAMILY_REVOKE" || latest.isFamilyShared {
          revocation = .familySharing(at: Instant(ms: at))
        } else if latest.isUpgraded && type == nil && fields?.revocationReason == nil {
          // Revoked because the customer upgraded: not a refund; the period simply no longer backs access.
        } else {
          var detail = "refunded \(Instant(ms: at))"
          if let type {
            detail +=
              " (\(type)" + (fields?.revocationPercentMilli.map { ", \(Percent.milli($0))" } ?? "") + ")"
          }
          if let sources = noticeSources[latest.tx] {
            detail += "; REFUND notification in " + sources.joined(separator: " and ")
          }
          revocation = .refund(at: Instant(ms: at), detail: detail)
        }
      }

      for q in p0..<p1 {
        let n = Int(order[q])
        let r = records[n]
        records[n].flags.remove(.paid)
        guard r.amount > 0, r.isProduction, !r.isFamilyShared else { continue }
        if let at = revokedAt(q), at <= t { continue }
        records[n].flags.insert(.paid)
      }
      return revocation
    }

    // MARK: Google Play

    /// When the order `id` was returned (refund row, voided purchase or earnings `Charge refund`), the
    /// earliest such instant.
    @inline(__always)
    func returned(_ id: CompactID, _ p1: Int, _ v1: Int) -> Int64? {
      guard id != .empty else { return nil }
      var at: Int64? = earningsReturns.isEmpty ? nil : earningsReturns[id]
      guard v1 > p1 else { return at }
      for q in p1..<v1 {
        let r = record(q)
        if r.tx == id { at = min(at ?? r.at, r.at) }
      }
      return at
    }

    /// The sources that know the order `id` was returned, in a fixed order: `refund row` (the sales
    /// report), `voided purchase`, `earnings Charge refund`.
    func returnSources(_ id: CompactID, _ p1: Int, _ r1: Int, _ v1: Int) -> [String] {
      var sources: [String] = []
      if (p1..<r1).contains(where: { record($0).tx == id }) { sources.append("refund row") }
      if (r1..<v1).contains(where: { record($0).tx == id }) { sources.append("voided purchase") }
      if earningsReturns[id] != nil { sources.append("earnings Charge refund") }
      return sources
    }

    func derivePlay(
      _ chain: inout ChainState, status: StatusRecord?, _ p0: Int, _ p1: Int, _ r1: Int, _ v1: Int
    ) -> Chain.Revocation? {
      let pending = status?.pending ?? false
      var tester = status?.environment == .test
      var anyProduction = false
      for q in p0..<p1 {
        let r = record(q)
        if r.environment == .test { tester = true }
        if r.isProduction { anyProduction = true }
      }
      chain.flags = []
      if !tester && (p1 == p0 || anyProduction) { chain.flags.insert(.production) }
      if pending { chain.flags.insert(.pending) }

      var latest = p1 > p0 ? p1 - 1 : -1
      if let id = status?.latestOrder, !id.isAbsent, let compact = CompactID.known(id, in: pool) {
        for q in stride(from: p1 - 1, through: p0, by: -1) where record(q).tx == compact {
          latest = q
          break
        }
      }
      if let status, variants[Int(status.variant)].name != emptyName {
        chain.currentProduct = variants[Int(status.variant)].name
      } else {
        chain.currentProduct = latest >= 0 ? variants[Int(record(latest).variant)].name : UInt32.max
      }

      var revocation: Chain.Revocation?
      // The latest order: the latest purchase's, else the resource's (which no record may name).
      var latestOrder: CompactID?
      var hasLatestOrder = false
      if latest >= 0 {
        latestOrder = record(latest).tx
        hasLatestOrder = true
      } else if let id = status?.latestOrder, !id.isAbsent {
        latestOrder = CompactID.known(id, in: pool)
        hasLatestOrder = true
      }
      if let latestOrder, let at = returned(latestOrder, p1, v1) {
        let how = returnSources(latestOrder, p1, r1, v1).joined(separator: ", ")
        let when = Instant(ms: at)
        revocation = .refund(
          at: when, detail: "latest order \(latestOrder.id.string(pool: pool)) returned (\(how)) \(when)")
      } else if !hasLatestOrder || status != nil {
        for q in r1..<v1 where record(q).tx == .empty {
          let when = Instant(ms: record(q).at)
          revocation = .refund(at: when, detail: "purchase voided \(when)")
          break
        }
      }

      if let status, status.expires != PackedRecord.none {
        chain.paidThrough = status.expires
      } else {
        var paidThrough = PackedRecord.none
        for q in p0..<p1 {
          let purchase = record(q)
          if returned(purchase.tx, p1, v1) != nil { continue }
          let end: Int64
          switch type(purchase) {
          case .nonConsumable: end = Instant.distantFuture.ms
          case .consumable: continue
          default: end = periods[Int(purchase.variant)].advance(Instant(ms: purchase.at)).ms
          }
          paidThrough = paidThrough == PackedRecord.none ? end : max(paidThrough, end)
        }
        chain.paidThrough = paidThrough
      }

      for q in p0..<p1 {
        let n = Int(order[q])
        let r = records[n]
        records[n].flags.remove(.paid)
        guard r.amount > 0, r.environment == .production, !pending, !tester,
          returned(r.tx, p1, v1) == nil
        else { continue }
        records[n].flags.insert(.paid)
      }
      return revocation
    }

    /// The number of the empty product name (`UInt32.max` when no variant has it).
    let emptyName: UInt32

    init(
      records: LedgerSlots<PackedRecord>, order: LedgerSlots<UInt32>,
      chains: LedgerSlots<ChainState>, statuses: [StatusRecord], rare: [Int: RareFields],
      pool: TextPool, types: [ProductType], periods: [BillingPeriod], variants: [ProductNames.Variant],
      t: Int64,
      emptyName: UInt32
    ) {
      self.records = records
      self.order = order
      self.chains = chains
      self.statuses = statuses
      self.rare = rare
      self.pool = pool
      self.types = types
      self.periods = periods
      self.variants = variants
      self.t = t
      self.emptyName = emptyName
    }
  }

  /// Whether record `a` comes before record `b` in purchase order: oldest first; a Play renewal `..N`
  /// after its first order on equal instants; then transaction id; then arrival (record number).
  @inline(__always)
  static func purchaseLess(
    _ a: UInt32, _ b: UInt32, _ records: LedgerSlots<PackedRecord>, _ pool: TextPool
  ) -> Bool {
    let x = records[Int(a)]
    let y = records[Int(b)]
    if x.at != y.at { return x.at < y.at }
    let rx = renewal(x.transactionId, pool)
    let ry = renewal(y.transactionId, pool)
    if rx != ry { return rx < ry }
    let c = PackedID.compare(x.transactionId, y.transactionId, pool: pool)
    if c != 0 { return c < 0 }
    return a < b
  }

  /// The Play renewal number of a transaction id, or -1 for none.
  @inline(__always)
  static func renewal(_ id: PackedID, _ pool: TextPool) -> Int {
    switch id.kind {
    case .playOrder: return id.playRenewal ?? -1
    case .pooled: return PlayOrderId.renewal(pool.string(id.poolID)) ?? -1
    case .decimal, .empty: return -1
    }
  }

  /// A record's product type: the catalog's, else the record's own.
  static func type(of record: StoreTransaction, catalog: Catalog) -> ProductType {
    if let known = catalog.product(record.productId, store: record.store)?.type { return known }
    return record.productType
  }

  /// Purchases oldest first; a Play renewal `..N` after its first order on equal instants.
  static func purchaseOrder(_ a: StoreTransaction, _ b: StoreTransaction) -> Bool {
    if a.at != b.at { return a.at < b.at }
    let ra = PlayOrderId.renewal(a.transactionId) ?? -1
    let rb = PlayOrderId.renewal(b.transactionId) ?? -1
    if ra != rb { return ra < rb }
    return a.transactionId < b.transactionId
  }
}

/// Formats milli-percent values (Apple `revocationPercentage`).
enum Percent {
  /// `50000` → `50%`, `12345` → `12.345%`.
  static func milli(_ value: Int64) -> String {
    let whole = value / 1000
    var fraction = String(value % 1000)
    if fraction == "0" { return "\(whole)%" }
    while fraction.count < 3 { fraction = "0" + fraction }
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(whole).\(fraction)%"
  }
}
