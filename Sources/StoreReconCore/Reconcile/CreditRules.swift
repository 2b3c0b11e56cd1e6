import StoreReconPlatform

/// The consumable credit rules of docs/rules.md: every paid consumable purchase credited exactly once,
/// with the units the catalog says, and taken back when refunded; every credit backed by a purchase.
///
/// Credits are matched to purchases by (store, transaction id): Apple `transactionId`, Play order id.
package enum CreditRules {
  /// One consumable purchase of the ledger (at or before T).
  struct Purchase {
    /// The chain and the position of the record in the ledger's order.
    var chain: Int
    var position: Int
    var record: PackedRecord
    /// When the money was returned (Apple revocation, Play refund row or void) at or before T.
    var returnedAt: Int64?
  }

  /// The findings about `credits` against the consumable purchases of `ledger`, as of `options.asOf`.
  /// `claimer` names the user who claims a chain, if any (the user of an uncredited purchase). Where
  /// several credits name one purchase, a finding names the user of the earliest (then lowest id).
  static func findings(
    ledger: Ledger, credits: [CreditRow], options: ReconcileOptions, claimer: (Int) -> String?
  ) -> [Finding] {
    let s = ledger.storage
    let t = options.asOf
    // Earliest credit first (then by id): the user a finding names does not depend on row order. The
    // rows' numbers are sorted, not the rows.
    let order = creditOrder(credits)
    let purchases = consumablePurchases(s, t: t.ms)
    // Keys of packed ids (Apple's decimal ids and Play's order ids pack): no text per purchase. Per key
    // the first credit row (in `order`), and per row the next one of its key (-1: none).
    var first: [Key: Int32] = [:]
    first.reserveCapacity(credits.count)
    var next = [Int32](repeating: -1, count: credits.count)
    var last = [Int32](repeating: -1, count: credits.count)
    // Per credited row, the first row of its key (-1: not credited by T).
    var headOf = [Int32](repeating: -1, count: credits.count)
    for i in order where credits[Int(i)].isCredited(at: t) {
      let credit = credits[Int(i)]
      let key = Key(credit.store, credit.transactionId)
      if let head = first[key] {
        next[Int(last[Int(head)])] = i
        last[Int(head)] = i
        headOf[Int(i)] = head
      } else {
        first[key] = i
        last[Int(i)] = i
        headOf[Int(i)] = i
      }
    }
    last = []
    let (heads, nexts) = (first, next)
    first = [:]
    let count = purchases.count
    // Each part's findings, and the keys its purchases name (by first row): production, or test only.
    let found = Parallel.map(count, .balanced(minimum: 20_000)) {
      range -> (findings: [Finding], production: [Int32], test: [Int32]) in
      var out: (findings: [Finding], production: [Int32], test: [Int32]) = ([], [], [])
      for p in purchases[range] {
        let head = heads[Key(s.chains[p.chain].store, p.record.transactionId, s.pool)] ?? -1
        guard p.record.isProduction else {
          if head >= 0 { out.test.append(head) }
          continue
        }
        if head >= 0 { out.production.append(head) }
        if head >= 0, nexts[Int(head)] < 0,
          standsCredited(p, credits[Int(head)], storage: s, options: options)
        {
          continue
        }
        var rows: [CreditRow] = []
        var i = head
        while i >= 0 {
          rows.append(credits[Int(i)])
          i = nexts[Int(i)]
        }
        out.findings += purchaseFindings(p, credits: rows, storage: s, options: options, claimer: claimer)
      }
      return out
    }
    var production = [Bool](repeating: false, count: credits.count)
    var test = [Bool](repeating: false, count: credits.count)
    for part in found {
      for h in part.production { production[Int(h)] = true }
      for h in part.test { test[Int(h)] = true }
    }
    return found.flatMap(\.findings)
      + orphanCredits(
        credits, order: order, headOf: headOf, production: production, test: test, at: t)
  }

  /// The rows' numbers, earliest credit first, then by credit id.
  static func creditOrder(_ credits: [CreditRow]) -> [Int32] {
    let at = credits.map { ($0.creditedAt ?? .distantPast).ms }
    var order = (0..<Int32(credits.count)).map { $0 }
    order.sort { a, b in
      let x = at[Int(a)]
      let y = at[Int(b)]
      if x != y { return x < y }
      let ia = credits[Int(a)].creditId
      let ib = credits[Int(b)].creditId
      return ia != ib ? ia < ib : a < b
    }
    return order
  }

  /// Whether a purchase credited once, by `credit`, has nothing to say: the common case, decided
  /// without making the list of its credits (as ``purchaseFindings(_:credits:storage:options:claimer:)``
  /// decides it first).
  static func standsCredited(
    _ p: Purchase, _ credit: CreditRow, storage s: LedgerStorage, options: ReconcileOptions
  ) -> Bool {
    let charged = p.record.amount > 0 && !p.record.isFamilyShared
    return charged && p.returnedAt == nil && credit.isStanding(at: options.asOf)
      && options.catalog.units(s.products.name(ofVariant: p.record.variant), store: s.chains[p.chain].store)
        == nil
  }

  /// A purchase's or a credit's store and transaction id, packed where the id packs.
  struct Key: Hashable {
    var store: Store
    var id: PlayOrderKey

    init(_ store: Store, _ transactionId: String) {
      self.store = store
      id = PlayOrderKey(transactionId)
    }

    init(_ store: Store, _ transactionId: PackedID, _ pool: TextPool) {
      self.store = store
      id = PlayOrderKey(transactionId, pool: pool)
    }
  }

  /// Every purchase record of a consumable product, in chain order.
  static func consumablePurchases(_ s: LedgerStorage, t: Int64) -> [Purchase] {
    let count = s.chains.count
    return Parallel.map(count, .balanced(minimum: 50_000)) { range -> [Purchase] in
      var found: [Purchase] = []
      for c in range {
        for k in s.purchases(c) {
          let r = s.record(at: k)
          guard s.products.productType[Int(r.variant)] == .consumable else { continue }
          found.append(Purchase(chain: c, position: k, record: r, returnedAt: returnedAt(c, k, s, t: t)))
        }
      }
      return found
    }.flatMap { $0 }
  }

  /// When the purchase at position `k` of chain `c` was refunded, revoked or voided, at or before T.
  static func returnedAt(_ c: Int, _ k: Int, _ s: LedgerStorage, t: Int64) -> Int64? {
    let r = s.record(at: k)
    if let at = s.revokedAt(Int(s.order[k])) { return at <= t ? at : nil }
    var at: Int64?
    for q in s.refunds(c).lowerBound..<s.voids(c).upperBound {
      let event = s.record(at: q)
      if event.tx == r.tx || (event.tx == .empty && s.voids(c).contains(q)) {
        at = min(at ?? event.at, event.at)
      }
    }
    return at
  }

  /// The findings about one production consumable purchase and the credit rows naming it (credited at
  /// or before T).
  static func purchaseFindings(
    _ p: Purchase, credits: [CreditRow], storage s: LedgerStorage, options: ReconcileOptions,
    claimer: (Int) -> String?
  ) -> [Finding] {
    let t = options.asOf
    let charged = p.record.amount > 0 && !p.record.isFamilyShared
    // Most purchases are credited once and stand: nothing to say, no text made.
    if charged, p.returnedAt == nil, credits.count == 1, credits[0].isStanding(at: t),
      options.catalog.units(s.products.name(ofVariant: p.record.variant), store: s.chains[p.chain].store)
        == nil
    {
      return []
    }
    let tx = p.record.transactionId.string(pool: s.pool)
    let chain = s.chains[p.chain]
    let r = p.record
    let product = s.products.name(ofVariant: r.variant)
    let live = credits.filter { $0.isStanding(at: t) }
    let at = Instant(ms: r.at)
    func finding(_ reason: Finding.Reason, _ user: String, _ amount: Int64?, _ detail: String) -> Finding {
      Finding(
        reason: reason, store: chain.store, chainKey: tx, userId: user, productId: product,
        currency: r.currencyValue, amountMinor: amount, detail: "purchase \(tx) of \(at): " + detail)
    }
    if let returned = p.returnedAt {
      guard charged, let credit = live.first else { return [] }
      let ids = live.map(\.creditId).joined(separator: ", ")
      return [
        finding(
          .refundNotReversed, credit.userId, r.amount,
          "refunded \(Instant(ms: returned)) but credit \(ids) (\(credit.quantity) units) is not reversed")
      ]
    }
    guard charged, !chain.pending else { return [] }
    if live.isEmpty {
      guard r.at &+ options.creditGraceMs < t.ms else { return [] }
      let reversed = credits.first { !$0.isStanding(at: t) }
      let why =
        reversed.map { "its credit \($0.creditId) was reversed though the purchase stands" }
        ?? "no credit row names it, \(options.creditGraceMs / 3_600_000)h after the purchase"
      return [finding(.notCredited, reversed?.userId ?? claimer(p.chain) ?? "", r.amount, why)]
    }
    if live.count > 1 {
      let ids = live.map(\.creditId).joined(separator: ", ")
      return [
        finding(
          .creditedTwice, live[0].userId, r.amount * Int64(live.count - 1),
          "credited \(live.count) times (\(ids))")
      ]
    }
    let quantity = Int64(s.products.quantity(ofVariant: r.variant))
    if let units = options.catalog.units(product, store: chain.store), units > 0 {
      let expected = units * quantity
      let credited = live[0].quantity
      if credited > expected {
        return [
          finding(
            .overCredited, live[0].userId, r.amount * (credited - expected) / expected,
            "credit \(live[0].creditId) grants \(credited) units; the catalog says \(units) × \(quantity) = \(expected)"
          )
        ]
      }
    }
    return []
  }

  /// Standing credits naming no consumable purchase of the store data, or a sandbox/test one: one
  /// finding per (store, transaction id, user), in `order`. `headOf` gives each credited row the first
  /// row of its (store, transaction id); `production` and `test` mark the first rows whose key a
  /// production, or a sandbox/test, purchase has.
  static func orphanCredits(
    _ credits: [CreditRow], order: [Int32], headOf: [Int32], production: [Bool], test: [Bool], at t: Instant
  ) -> [Finding] {
    var seen = Set<String>()
    var findings: [Finding] = []
    for i in order {
      let credit = credits[Int(i)]
      guard credit.isStanding(at: t) else { continue }
      let head = Int(headOf[Int(i)])
      guard !production[head],
        seen.insert("\(credit.store.rawValue)|\(credit.transactionId)|\(credit.userId)").inserted
      else { continue }
      let sandbox = test[head]
      let detail =
        sandbox
        ? "credit \(credit.creditId) (\(credit.quantity) units) is for a sandbox/test purchase"
        : "credit \(credit.creditId) (\(credit.quantity) units) names no purchase the \(credit.store.rawValue) data has"
      findings.append(
        Finding(
          reason: sandbox ? .sandboxCredit : .unknownTransaction, store: credit.store,
          chainKey: credit.transactionId, userId: credit.userId, productId: credit.productId, currency: nil,
          amountMinor: nil, detail: detail))
    }
    return findings
  }
}
