import StoreReconPlatform

/// The finding rules of docs/rules.md, applied to a ledger and the app's rows. Pure: values in, values out.
package enum Reconciler {
  /// Every finding as of `options.asOf`, in report order.
  /// `credits`: the credits contract's rows, `nil` where the run reads none (no credit findings).
  package static func findings(
    ledger: Ledger, entitlements: [Entitlement], credentials: [Credential], goodwill: [GoodwillGrant],
    credits: [CreditRow]? = nil, notifications: NotificationLog? = nil, options: ReconcileOptions
  ) -> [Finding] {
    let s = ledger.storage
    var e = PackedEntitlements(pool: s.pool, products: s.products)
    for row in entitlements { e.append(row) }
    var c = PackedCredentials(pool: s.pool)
    for row in credentials { c.append(row) }
    return findings(
      ledger: ledger, entitlements: e, credentials: c, goodwill: goodwill, credits: credits,
      notifications: notifications, options: options)
  }

  /// Every finding as of `options.asOf`, in report order, from packed app rows: the entitlement
  /// findings, then the chain findings (which read what the entitlement pass found of each row).
  package static func findings(
    ledger: Ledger, entitlements: PackedEntitlements, credentials: PackedCredentials,
    goodwill: [GoodwillGrant], credits: [CreditRow]? = nil, notifications: NotificationLog? = nil,
    options: ReconcileOptions
  ) -> [Finding] {
    let s = ledger.storage
    let entitlements = entitlements.sharing(pool: s.pool, products: s.products)
    let credentials = credentials.sharing(pool: s.pool)
    let rules = Rules(options)
    let rowCount = entitlements.rows.count
    var entitlementChains = [Int32](repeating: -1, count: rowCount)
    // Per row, for the chain findings: the user's code and whether the row is active at T.
    var entitlementUsers = [UInt64](repeating: 0, count: rowCount)
    var entitlementActive = [Bool](repeating: false, count: rowCount)
    var findings = entitlementFindings(
      entitlements, storage: s, rules: rules, goodwill: GoodwillCover(goodwill, at: options.asOf),
      chains: &entitlementChains, users: &entitlementUsers, active: &entitlementActive)
    if let notifications {
      findings += NotificationHealth.findings(
        notifications, storage: s,
        entitlements: .init(table: entitlements, chains: entitlementChains, active: entitlementActive),
        asOf: options.asOf.ms, toleranceMs: options.toleranceMs, graceMs: options.graceMs)
    }
    let claims = ClaimIndex(
      ledger: ledger, entitlements: entitlements, credentials: credentials,
      entitlementChains: entitlementChains,
      entitlementUsers: entitlementUsers, entitlementActive: entitlementActive)
    entitlementUsers = []
    entitlementActive = []
    findings += chainFindings(
      ledger, claims: claims, entitlements: entitlements, credentials: credentials, rules: rules)
    findings += claims.withView { view in
      // The first claimer of chain `c` (as firstClaimer finds it), without an array per chain.
      let claimer = { (c: Int) -> String? in
        var first: Claim?
        for source in view.sources(of: c) {
          let claim = ClaimIndex.claim(source, entitlements, credentials)
          guard let best = first else {
            first = claim
            continue
          }
          let a = claim.at ?? .distantFuture
          let b = best.at ?? .distantFuture
          if a < b || (a == b && claim.userId < best.userId) { first = claim }
        }
        return first?.userId
      }
      let person = { (c: Int) -> String? in
        if let user = claimer(c) { return user }
        let token = s.chains[c].accountToken
        return token == 0 ? nil : s.tokens.string(token - 1)
      }
      // The two rules read the ledger only: the credit rules (mostly one core) run beside double billing.
      guard let credits else {
        return DoubleBilling.findings(ledger: ledger, options: options, person: person)
      }
      let (billing, credited) = Parallel.pair(
        { DoubleBilling.findings(ledger: ledger, options: options, person: person) },
        { CreditRules.findings(ledger: ledger, credits: credits, options: options, claimer: claimer) })
      return billing + credited
    }
    return Finding.sortedInReportOrder(findings)
  }

  /// The free_entitlement findings of every entitlement row, in row order, on all cores; fills in each
  /// row's chain (-1: none), its user's code and whether it is active at T.
  ///
  /// Each part looks up its rows' chains in blocks of 64 rows, and raises the block's findings while
  /// those chains are still in the cache.
  private static func entitlementFindings(
    _ entitlements: PackedEntitlements, storage s: LedgerStorage, rules: Rules, goodwill: GoodwillCover,
    chains: inout [Int32], users: inout [UInt64], active: inout [Bool]
  ) -> [Finding] {
    let parts = Parallel.parts(for: entitlements.rows.count, minimum: 50_000)
    let found = entitlements.withRows { rows in
      Parallel.map(parts: parts, filling: &chains, &users, &active) {
        range, chains, users, active -> [Finding] in
        var found: [Finding] = []
        for block in range.blocks(of: BlockSize.rows) {
          s.chainIndexes(block, into: chains) { j in
            let key = rows[j].key
            guard let store = rows[j].source.store, !key.isAbsent, key != .empty else { return nil }
            return (store, key)
          }
          for i in block {
            users[i] = UserCode.of(rows[i].userId)
            active[i] = rows[i].isActive(at: rules.asOf)
            guard let store = rows[i].source.store, active[i], rules.checks(store) else { continue }
            let chain = chains[i]
            if let finding = freeEntitlement(
              rows, i, chain: chain < 0 ? nil : Int(chain), store: store, storage: s, rules: rules,
              excused: { goodwill.excuses(rows[i].userId, s.products.names[Int(rows[i].product)]) })
            {
              found.append(finding)
            }
          }
        }
        return found
      }
    }
    return found.flatMap { $0 }
  }

  /// The orphaned_charge and duplicate_claim findings of every chain, in chain order, on all cores.
  ///
  /// Each part goes in blocks of 32 chains: first what each chain's claims say (any active entitlement
  /// naming it, one user or several) in a tight loop whose row reads overlap, then the block's findings.
  private static func chainFindings(
    _ ledger: Ledger, claims: ClaimIndex, entitlements: PackedEntitlements, credentials: PackedCredentials,
    rules: Rules
  ) -> [Finding] {
    let s = ledger.storage
    let chainCount = s.chains.count
    let block = BlockSize.chains
    let found = claims.withView { view in
      Parallel.map(chainCount, .balanced(minimum: 20_000)) { range -> [Finding] in
        var found: [Finding] = []
        var facts = [UInt8](repeating: 0, count: block)
        for chains in range.blocks(of: block) {
          for c in chains {
            facts[c - chains.lowerBound] = ClaimIndex.facts(
              view.sources(of: c), view, entitlements, credentials)
          }
          for c in chains {
            let claimed = view.sources(of: c)
            let fact = facts[c - chains.lowerBound]
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
        }
        return found
      }
    }
    return found.flatMap { $0 }
  }

  /// The goodwill grants covering T: they excuse a store entitlement that merely runs past the store
  /// (support's choice).
  struct GoodwillCover {
    /// `user id` U+001F `product id` of each grant, and the users with one.
    private var grants = Set<String>()
    private var users = Set<String>()

    /// The grants of `goodwill` that cover `t`.
    init(_ goodwill: [GoodwillGrant], at t: Instant) {
      for grant in goodwill
      where (grant.startsAt ?? .distantPast) <= t && (grant.endsAt ?? .distantFuture) > t {
        grants.insert("\(grant.userId)\u{1F}\(grant.productId)")
        users.insert(grant.userId)
      }
    }

    /// Whether a grant covering T gives `userId` the product (`productId`, asked only for users with a grant).
    @inline(__always)
    func excuses(_ userId: String, _ productId: @autoclosure () -> String) -> Bool {
      users.contains(userId) && grants.contains("\(userId)\u{1F}\(productId())")
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
  package static func uncheckedEntitlements(_ entitlements: PackedEntitlements, options: ReconcileOptions)
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
    _ rows: borrowing PackedEntitlements.Rows, _ i: Int, chain c: Int?, store: Store,
    storage s: LedgerStorage,
    rules: Rules, excused: () -> Bool
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
        detail: "entitlement \(e.entitlementId) (\(e.status.rawValue), until \(until)): " + detail
          + commitmentNote(c, s))
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
    // An App Store commitment plan has no billing grace period, nor has a Stripe subscription that is
    // not past due (unpaid, canceled…): their allowance is 0 (docs/rules.md).
    let noGrace = (store == .appStore && chain.onCommitment) || chain.withoutGrace
    let grace = noGrace ? 0 : rules.graceMs[slot]
    let graceDays = noGrace ? 0 : rules.graceDays[slot]
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
          "store paid through \(paidThrough), + \(graceDays)d grace is before T \(t)")
    }
    let limit = graceEnd &+ rules.toleranceMs
    let expires = rows[i].expiresAt == PackedRecord.none ? Instant.distantFuture.ms : rows[i].expiresAt
    if expires > limit && chain.paidThrough < Instant.distantFuture.ms && !excused() {
      let paidThrough = Instant(ms: chain.paidThrough)
      return finding(
        .overextended, c,
        "runs past store paid-through \(paidThrough) + \(graceDays)d grace + tolerance")
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
    _ c: Int, storage s: LedgerStorage, claims sources: ClaimIndex.Sources, anyActive: Bool,
    entitlements: PackedEntitlements, credentials: PackedCredentials, rules: Rules
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
      var overflowed = false
      var since: Instant?
      for k in range {
        let r = s.record(at: k)
        guard r.isPaid, r.currency == latest.currency else { continue }
        if since == nil { since = Instant(ms: r.at) }
        count += 1
        total.add(r.amount, overflow: &overflowed)
      }
      let token = chain.accountToken == 0 ? nil : s.tokens.string(chain.accountToken - 1)
      var finding = Finding(
        reason: .unclaimed, store: chain.store, chainKey: key, userId: "",
        productId: product, currency: currency, amountMinor: total,
        detail:
          "\(count) paid charge(s) since \(since?.description ?? "?"); no credential or entitlement names this purchase"
          + (token.map { "; the store's account token is \($0)" } ?? "") + commitmentNote(c, s))
      finding.overflowed = overflowed
      return finding
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
      detail: "paid through \(Instant(ms: chain.paidThrough)) but \(state)" + commitmentNote(c, s))
  }

  /// `; commitment: payment 3 of 12, …` for a finding about a chain on a commitment plan, else empty (so
  /// that findings about every other chain read as before).
  static func commitmentNote(_ c: Int?, _ s: LedgerStorage) -> String {
    guard let c, s.chains[c].onCommitment, let commitment = s.commitment(c) else { return "" }
    return "; " + commitment.detail
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
