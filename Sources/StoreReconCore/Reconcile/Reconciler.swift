import StoreReconPlatform

/// The finding rules of docs/rules.md, applied to a ledger and the app's rows. Pure: values in, values out.
package enum Reconciler {
  /// Every finding as of `options.asOf`, in report order.
  package static func findings(
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
  package static func findings(
    ledger: Ledger, entitlements: EntitlementTable, credentials: CredentialTable, goodwill: [GoodwillGrant],
    options: ReconcileOptions
  ) -> [Finding] {
    let s = ledger.storage
    let entitlements = entitlements.sharing(pool: s.pool, products: s.products)
    let credentials = credentials.sharing(pool: s.pool)
    let t = options.asOf
    let rules = Rules(options)
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
    // Each entitlement's chain is looked up in blocks of rows, and the block's findings are raised
    // while those chains are still in the cache.
    let rowCount = entitlements.rows.count
    let rowParts = Parallel.parts(for: rowCount, minimum: 50_000)
    var entitlementChains = [Int32](repeating: -1, count: rowCount)
    // Per row, for the chain findings: the user's code and whether the row is active at T.
    var entitlementUsers = [UInt64](repeating: 0, count: rowCount)
    var entitlementActive = [Bool](repeating: false, count: rowCount)
    let entitlementFindings = withBuffers(&entitlementChains, &entitlementUsers, &entitlementActive) {
      out, users, active in
      Parallel.map(parts: rowParts) { part -> [Finding] in
        var found: [Finding] = []
        entitlements.rows.withUnsafeBufferPointer { rows in
          let range = Parallel.range(part, of: rowParts, count: rowCount)
          var start = range.lowerBound
          while start < range.upperBound {
            let block = start..<min(start + 64, range.upperBound)
            s.chainIndexes(block, into: out) { j in
              let key = rows[j].key
              guard let store = rows[j].source.store, !key.isAbsent, key != .empty else { return nil }
              return (store, key)
            }
            for i in block {
              users[i] = UserCode.of(rows[i].userId)
              active[i] = rows[i].isActive(at: t.ms)
              guard let store = rows[i].source.store, active[i], rules.checks(store) else { continue }
              let chain = out[i]
              if let finding = freeEntitlement(
                rows, i, chain: chain < 0 ? nil : Int(chain), store: store, storage: s, rules: rules,
                excused: {
                  goodwillUsers.contains(rows[i].userId)
                    && goodwillNow.contains(
                      "\(rows[i].userId)\u{1F}\(s.products.names[Int(rows[i].product)])")
                })
              {
                found.append(finding)
              }
            }
            start = block.upperBound
          }
        }
        return found
      }
    }
    for part in entitlementFindings { findings.append(contentsOf: part) }
    let claims = ClaimIndex(
      ledger: ledger, entitlements: entitlements, credentials: credentials,
      entitlementChains: entitlementChains,
      entitlementUsers: entitlementUsers, entitlementActive: entitlementActive)
    entitlementUsers = []
    entitlementActive = []

    // Per chain: in blocks, first what its claims say (any active entitlement naming it, one user or
    // several) in a tight loop whose row reads overlap, then its findings.
    let chainCount = s.chains.count
    let chainParts = Parallel.parts(for: chainCount, minimum: 50_000)
    for part in Parallel.map(
      parts: chainParts,
      { part -> [Finding] in
        var found: [Finding] = []
        let block = 32
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: block) { facts in
          claims.withSources { starts, sources in
            entitlements.rows.withUnsafeBufferPointer { erows in
              credentials.rows.withUnsafeBufferPointer { crows in
                let range = Parallel.range(part, of: chainParts, count: chainCount)
                var c0 = range.lowerBound
                while c0 < range.upperBound {
                  let c1 = min(c0 + block, range.upperBound)
                  for c in c0..<c1 {
                    facts[c - c0] = claims.facts(sources[Int(starts[c])..<Int(starts[c + 1])], erows, crows)
                  }
                  for c in c0..<c1 {
                    let claimed = UnsafeBufferPointer(rebasing: sources[Int(starts[c])..<Int(starts[c + 1])])
                    let fact = facts[c - c0]
                    if let finding = orphanedCharge(
                      c, storage: s, claims: claimed, anyActive: fact & ClaimIndex.anyActive != 0,
                      entitlements: entitlements, credentials: credentials, rules: rules)
                    {
                      found.append(finding)
                    }
                    if fact & ClaimIndex.severalUsers != 0 {
                      let list = claimed.map { ClaimIndex.claim($0, entitlements, credentials) }
                      found.append(contentsOf: duplicateClaims(c, ledger: ledger, claims: list))
                    }
                  }
                  c0 = c1
                }
              }
            }
          }
        }
        return found
      })
    {
      findings.append(contentsOf: part)
    }
    return Finding.sortedInReportOrder(findings)
  }

  /// Calls `body` with the buffers of three arrays.
  private static func withBuffers<A, B, C, R>(
    _ a: inout [A], _ b: inout [B], _ c: inout [C],
    _ body: (UnsafeMutableBufferPointer<A>, UnsafeMutableBufferPointer<B>, UnsafeMutableBufferPointer<C>) -> R
  ) -> R {
    a.withUnsafeMutableBufferPointer { a in
      b.withUnsafeMutableBufferPointer { b in c.withUnsafeMutableBufferPointer { c in body(a, b, c) } }
    }
  }

  /// The options as the rules read them per entitlement or chain: arrays by store, no hashing.
  struct Rules: Sendable {
    let asOf: Int64
    let toleranceMs: Int64
    /// By ``LedgerStorage/slot(_:)``.
    let checked: [Bool]
    let graceMs: [Int64]
    let graceDays: [Int64]

    init(_ options: ReconcileOptions) {
      asOf = options.asOf.ms
      toleranceMs = options.toleranceMs
      var checked = [Bool](repeating: false, count: Store.allCases.count)
      var graceMs = [Int64](repeating: 0, count: Store.allCases.count)
      var graceDays = [Int64](repeating: 0, count: Store.allCases.count)
      for store in Store.allCases {
        let slot = LedgerStorage.slot(store)
        checked[slot] = options.storesWithData.contains(store)
        graceMs[slot] = options.graceMs(store)
        graceDays[slot] = options.graceDays[store] ?? 0
      }
      self.checked = checked
      self.graceMs = graceMs
      self.graceDays = graceDays
    }

    /// Whether the run read exports of `store`.
    @inline(__always) func checks(_ store: Store) -> Bool { checked[LedgerStorage.slot(store)] }
  }

  /// Active store-sourced entitlements per store whose exports the run did not read (not checked), from
  /// packed rows.
  package static func uncheckedEntitlements(_ entitlements: EntitlementTable, options: ReconcileOptions)
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
  package static func uncheckedEntitlements(_ entitlements: [Entitlement], options: ReconcileOptions)
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

  /// The finding about entitlement row `i` (active at T, of `store`, naming `chain` if any), if any.
  /// `excused`: whether goodwill covering T excuses it (asked only where it matters).
  static func freeEntitlement(
    _ rows: UnsafeBufferPointer<EntitlementTable.Row>, _ i: Int, chain c: Int?, store: Store,
    storage s: LedgerStorage, rules: Rules, excused: () -> Bool
  ) -> Finding? {
    let t = Instant(ms: rules.asOf)
    let key = rows[i].key
    func finding(_ reason: Finding.Reason, _ c: Int?, _ detail: String) -> Finding {
      let e = rows[i]
      let productId = s.products.names[Int(e.product)]
      let charge = c.flatMap { quotedCharge($0, s) }
      let until = e.expiresAt == PackedRecord.none ? "no end" : Instant(ms: e.expiresAt).description
      return Finding(
        reason: reason, store: store, chainKey: c.map { s.chains[$0].key.string(pool: s.pool) } ?? keyText,
        userId: e.userId, productId: productId, currency: charge?.currencyValue, amountMinor: charge?.amount,
        detail: "entitlement \(e.entitlementId) (\(e.status.rawValue), until \(until)): " + detail)
    }
    var keyText: String { key.isAbsent ? "" : key.string(pool: s.pool) }
    guard !key.isAbsent, key != .empty, let c else {
      let named = !key.isAbsent && key != .empty
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
    let slot = LedgerStorage.slot(store)
    let grace = rules.graceMs[slot]
    guard chain.paidThrough != PackedRecord.none else {
      let why = chain.pending ? "the purchase is pending" : "the store granted no period"
      return excused() ? nil : finding(.storeExpired, c, why)
    }
    let graceEnd = chain.paidThrough &+ grace
    if graceEnd < rules.asOf {
      let paidThrough = Instant(ms: chain.paidThrough)
      return excused()
        ? nil
        : finding(
          .storeExpired, c,
          "store paid through \(paidThrough), + \(rules.graceDays[slot])d grace is before T \(t)")
    }
    let limit = graceEnd &+ rules.toleranceMs
    let expires = rows[i].expiresAt == PackedRecord.none ? Instant.distantFuture.ms : rows[i].expiresAt
    if expires > limit && chain.paidThrough < Instant.distantFuture.ms && !excused() {
      let paidThrough = Instant(ms: chain.paidThrough)
      return finding(
        .overextended, c,
        "runs past store paid-through \(paidThrough) + \(rules.graceDays[slot])d grace + tolerance")
    }
    let product = rows[i].product
    if chain.currentProduct != UInt32.max, chain.currentProduct != product {
      let current = s.products.names[Int(chain.currentProduct)]
      return finding(
        .productMismatch, c,
        "grants \(s.products.names[Int(product)]) but the chain's current product is \(current)")
    }
    return nil
  }

  // MARK: orphaned_charge

  /// The orphaned charge chain `c` raises, if any (`anyActive`: an entitlement naming it is active at T).
  static func orphanedCharge(
    _ c: Int, storage s: LedgerStorage, claims sources: UnsafeBufferPointer<Int32>, anyActive: Bool,
    entitlements: EntitlementTable, credentials: CredentialTable, rules: Rules
  ) -> Finding? {
    let chain = s.chains[c]
    guard chain.production, !chain.pending, !chain.familyShared else { return nil }
    // A claimed chain first: the chain state decides most cases without reading its records.
    if !sources.isEmpty {
      guard !chain.revoked, chain.supersededBy < 0, chain.paidThrough != PackedRecord.none,
        chain.paidThrough > rules.asOf &+ rules.toleranceMs
      else { return nil }
      if anyActive { return nil }
    }
    guard let latestAt = s.latestPaid(c) else { return nil }
    let range = s.purchases(c)
    let latest = s.record(at: latestAt)
    // Texts only for a finding (most chains raise none).
    let product =
      chain.currentProduct != UInt32.max
      ? s.products.names[Int(chain.currentProduct)] : s.products.name(ofVariant: latest.variant)
    let key = chain.key.string(pool: s.pool)
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
    let named = sources.filter { $0 < 0 }.map { entitlements.rows[Int(-$0 - 1)] }
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
