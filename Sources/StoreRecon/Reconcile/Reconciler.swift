/// The finding rules of DESIGN.md, applied to a ledger and the app's rows. Pure: values in, values out.
public enum Reconciler {
  /// Every finding as of `options.asOf`, in report order.
  public static func findings(
    ledger: Ledger, entitlements: [Entitlement], credentials: [Credential], goodwill: [GoodwillGrant],
    options: ReconcileOptions
  ) -> [Finding] {
    let s = ledger.storage
    var e = EntitlementTable(pool: s.pool, products: s.products)
    for row in entitlements { e.append(row) }
    var c = CredentialTable(pool: s.pool)
    for row in credentials { c.append(row) }
    return findings(ledger: ledger, entitlements: e, credentials: c, goodwill: goodwill, options: options)
  }

  /// Every finding as of `options.asOf`, in report order, from packed app rows.
  public static func findings(
    ledger: Ledger, entitlements: EntitlementTable, credentials: CredentialTable, goodwill: [GoodwillGrant],
    options: ReconcileOptions
  ) -> [Finding] {
    let s = ledger.storage
    let entitlements = entitlements.sharing(pool: s.pool, products: s.products)
    let credentials = credentials.sharing(pool: s.pool)
    let t = options.asOf
    let claims = ClaimIndex(ledger: ledger, entitlements: entitlements, credentials: credentials)
    var findings: [Finding] = []

    // Goodwill covering T excuses a store entitlement that merely runs past the store (support's choice).
    var goodwillNow = Set<String>()
    var goodwillUsers = Set<String>()
    for grant in goodwill where (grant.startsAt ?? .distantPast) <= t && (grant.endsAt ?? .distantFuture) > t
    {
      goodwillNow.insert("\(grant.userId)\u{1F}\(grant.productId)")
      goodwillUsers.insert(grant.userId)
    }

    // Entitlement findings, then chain findings, each computed on all cores and kept in row order.
    let rowParts = Parallel.parts(for: entitlements.rows.count, minimum: 50_000)
    for part in Parallel.map(
      parts: rowParts,
      { part -> [Finding] in
        var found: [Finding] = []
        for i in Parallel.range(part, of: rowParts, count: entitlements.rows.count) {
          let e = entitlements.rows[i]
          guard let store = e.source.store, e.isActive(at: t.ms), options.storesWithData.contains(store)
          else { continue }
          let excused =
            goodwillUsers.contains(e.userId)
            && goodwillNow.contains("\(e.userId)\u{1F}\(s.products.names[Int(e.product)])")
          if let finding = freeEntitlement(
            e, table: entitlements, store: store, ledger: ledger, options: options, excused: excused)
          {
            found.append(finding)
          }
        }
        return found
      })
    {
      findings.append(contentsOf: part)
    }

    let chainParts = Parallel.parts(for: s.chains.count, minimum: 50_000)
    for part in Parallel.map(
      parts: chainParts,
      { part -> [Finding] in
        var found: [Finding] = []
        for c in Parallel.range(part, of: chainParts, count: s.chains.count) {
          let sources = claims.claims(c)
          if let finding = orphanedCharge(
            c, ledger: ledger, claims: sources, entitlements: entitlements, credentials: credentials,
            options: options)
          {
            found.append(finding)
          }
          if sources.count > 1 {
            let list = sources.map { ClaimIndex.claim($0, entitlements, credentials) }
            found.append(contentsOf: duplicateClaims(c, ledger: ledger, claims: list))
          }
        }
        return found
      })
    {
      findings.append(contentsOf: part)
    }
    // Report order; ties keep the order found (the sort is stable). Indexes are sorted, not findings,
    // so the findings themselves are moved once.
    var order = Array(findings.indices)
    findings.withUnsafeBufferPointer { all in
      order.sort { a, b in
        if Finding.reportOrder(all[a], all[b]) { return true }
        if Finding.reportOrder(all[b], all[a]) { return false }
        return a < b
      }
    }
    let sorted = order.map { findings[$0] }
    return sorted
  }

  /// Active store-sourced entitlements per store whose exports the run did not read (not checked), from
  /// packed rows.
  public static func uncheckedEntitlements(_ entitlements: EntitlementTable, options: ReconcileOptions)
    -> [Store: Int]
  {
    var unchecked: [Store: Int] = [:]
    for e in entitlements.rows {
      guard let store = e.source.store, !options.storesWithData.contains(store),
        e.isActive(at: options.asOf.ms)
      else { continue }
      unchecked[store, default: 0] += 1
    }
    return unchecked
  }

  /// Active store-sourced entitlements per store whose exports the run did not read (not checked).
  public static func uncheckedEntitlements(_ entitlements: [Entitlement], options: ReconcileOptions)
    -> [Store: Int]
  {
    var unchecked: [Store: Int] = [:]
    for e in entitlements {
      guard let store = e.source.store, !options.storesWithData.contains(store), e.isActive(at: options.asOf)
      else {
        continue
      }
      unchecked[store, default: 0] += 1
    }
    return unchecked
  }

  /// The amount a finding about chain `c` quotes: its latest paid charge, else its latest purchase with
  /// an amount.
  static func quotedCharge(_ c: Int, _ s: LedgerStorage) -> PackedRecord? {
    let range = s.purchases(c)
    if let latest = s.latestPaid(c) { return s.record(at: latest) }
    for k in range.reversed() where s.record(at: k).amount > 0 { return s.record(at: k) }
    return nil
  }

  // MARK: free_entitlement

  static func freeEntitlement(
    _ e: EntitlementTable.Row, table: EntitlementTable, store: Store, ledger: Ledger,
    options: ReconcileOptions,
    excused: Bool
  ) -> Finding? {
    let s = ledger.storage
    let t = options.asOf
    let productId = s.products.names[Int(e.product)]
    func finding(_ reason: Finding.Reason, _ c: Int?, _ detail: String) -> Finding {
      let charge = c.flatMap { quotedCharge($0, s) }
      let until = e.expiresAt == PackedRecord.none ? "no end" : Instant(ms: e.expiresAt).description
      return Finding(
        reason: reason, store: store, chainKey: c.map { s.chains[$0].key.string(pool: s.pool) } ?? keyText,
        userId: e.userId, productId: productId, currency: charge?.currencyValue, amountMinor: charge?.amount,
        detail: "entitlement \(e.entitlementId) (\(e.status.rawValue), until \(until)): " + detail)
    }
    var keyText: String { e.key.isAbsent ? "" : e.key.string(pool: s.pool) }
    guard !e.key.isAbsent, e.key != .empty, let c = s.chainIndex(store: store, key: e.key) else {
      let named = !e.key.isAbsent && e.key != .empty
      return finding(
        .noStoreRecord, nil,
        named ? "the \(store.rawValue) data has no purchase '\(keyText)'" : "names no store purchase")
    }
    let chain = s.chains[c]
    if !chain.production {
      return finding(.sandbox, c, "only sandbox/test purchases back it")
    }
    if chain.revoked {
      switch s.revocations[Int32(c)] {
      case .familySharing(let at)?:
        return finding(.refunded, c, "family sharing removed \(at)")
      case .refund(_, let detail)?:
        return finding(.refunded, c, detail)
      case nil:
        break
      }
    }
    if chain.supersededBy >= 0 {
      let newer = s.chains[Int(chain.supersededBy)].key.string(pool: s.pool)
      return finding(.superseded, c, "replaced by linked purchase \(newer)")
    }
    let grace = options.graceMs(store)
    guard chain.paidThrough != PackedRecord.none else {
      let why = chain.pending ? "the purchase is pending" : "the store granted no period"
      return excused ? nil : finding(.storeExpired, c, why)
    }
    let paidThrough = Instant(ms: chain.paidThrough)
    let graceEnd = paidThrough.adding(ms: grace)
    if graceEnd < t {
      return excused
        ? nil
        : finding(
          .storeExpired, c,
          "store paid through \(paidThrough), + \(options.graceDays[store] ?? 0)d grace is before T \(t)")
    }
    let limit = graceEnd.adding(ms: options.toleranceMs)
    let expires = e.expiresAt == PackedRecord.none ? Instant.distantFuture : Instant(ms: e.expiresAt)
    if expires > limit && paidThrough < .distantFuture && !excused {
      return finding(
        .overextended, c,
        "runs past store paid-through \(paidThrough) + \(options.graceDays[store] ?? 0)d grace + tolerance")
    }
    if chain.currentProduct != UInt32.max, chain.currentProduct != e.product {
      let current = s.products.names[Int(chain.currentProduct)]
      return finding(.productMismatch, c, "grants \(productId) but the chain's current product is \(current)")
    }
    return nil
  }

  // MARK: orphaned_charge

  static func orphanedCharge(
    _ c: Int, ledger: Ledger, claims sources: ArraySlice<Int32>, entitlements: EntitlementTable,
    credentials: CredentialTable, options: ReconcileOptions
  ) -> Finding? {
    let s = ledger.storage
    let t = options.asOf
    let chain = s.chains[c]
    guard chain.production, !chain.pending, !chain.familyShared, let latestAt = s.latestPaid(c) else {
      return nil
    }
    let range = s.purchases(c)
    let latest = s.record(at: latestAt)
    // Texts only for a finding (most chains raise none).
    var product: String {
      chain.currentProduct != UInt32.max
        ? s.products.names[Int(chain.currentProduct)] : s.products.name(ofVariant: latest.variant)
    }
    var key: String { chain.key.string(pool: s.pool) }
    if sources.isEmpty {
      let currency = latest.currencyValue
      var count = 0
      var total: Int64 = 0
      var since: Instant?
      for k in range {
        let r = s.record(at: k)
        guard r.isPaid, r.currency == latest.currency else { continue }
        if since == nil { since = Instant(ms: r.at) }
        count += 1
        total += r.amount
      }
      let token = chain.accountToken == 0 ? nil : s.tokens.string(chain.accountToken - 1)
      return Finding(
        reason: .unclaimed, store: chain.store, chainKey: key, userId: "",
        productId: product, currency: currency, amountMinor: total,
        detail:
          "\(count) paid charge(s) since \(since?.description ?? "?"); no credential or entitlement names this purchase"
          + (token.map { "; the store's account token is \($0)" } ?? ""))
    }
    guard !chain.revoked, chain.supersededBy < 0, chain.paidThrough != PackedRecord.none,
      chain.paidThrough > t.adding(ms: options.toleranceMs).ms
    else { return nil }
    let named = sources.filter { $0 < 0 }.map { entitlements.rows[Int(-$0 - 1)] }
    if named.contains(where: { $0.isActive(at: t.ms) }) { return nil }
    let claims = sources.map { ClaimIndex.claim($0, entitlements, credentials) }
    let user = firstClaimer(claims)?.userId ?? ""
    let state =
      named.isEmpty
      ? "no entitlement names it"
      : "its entitlement(s) are not active: "
        + named.map {
          let until = $0.expiresAt == PackedRecord.none ? "no end" : Instant(ms: $0.expiresAt).description
          return "\($0.entitlementId) \($0.status.rawValue) until \(until)"
        }
        .joined(separator: "; ")
    return Finding(
      reason: .lockedOut, store: chain.store, chainKey: key, userId: user,
      productId: product, currency: latest.currencyValue, amountMinor: latest.amount,
      detail: "paid through \(Instant(ms: chain.paidThrough)) but \(state)")
  }

  // MARK: duplicate_claim

  static func firstClaimer(_ claims: [Claim]) -> Claim? {
    claims.min { a, b in
      let aa = a.at ?? .distantFuture
      let bb = b.at ?? .distantFuture
      return aa != bb ? aa < bb : a.userId < b.userId
    }
  }

  static func duplicateClaims(_ c: Int, ledger: Ledger, claims: [Claim]) -> [Finding] {
    let users = Set(claims.map(\.userId))
    guard users.count > 1, let first = firstClaimer(claims) else { return [] }
    let s = ledger.storage
    let chain = s.chains[c]
    let charge = s.latestPaid(c).map { s.record(at: $0) }
    let key = chain.key.string(pool: s.pool)
    let product = chain.currentProduct == UInt32.max ? "" : s.products.names[Int(chain.currentProduct)]
    return users.subtracting([first.userId]).sorted().map { user in
      Finding(
        reason: .multipleUsers, store: chain.store, chainKey: key, userId: user,
        productId: product, currency: charge?.currencyValue, amountMinor: charge?.amount,
        detail: "claimed by \(users.count) users; first claimed by \(first.userId)")
    }
  }
}
