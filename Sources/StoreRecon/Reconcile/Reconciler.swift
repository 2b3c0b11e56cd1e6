/// The finding rules of DESIGN.md, applied to a ledger and the app's rows. Pure: values in, values out.
public enum Reconciler {
  /// Every finding as of `options.asOf`, in report order.
  public static func findings(
    ledger: Ledger, entitlements: [Entitlement], credentials: [Credential], goodwill: [GoodwillGrant],
    options: ReconcileOptions
  ) -> [Finding] {
    let t = options.asOf
    let claims = ClaimIndex(ledger: ledger, entitlements: entitlements, credentials: credentials)
    var findings: [Finding] = []

    // Goodwill covering T excuses a store entitlement that merely runs past the store (support's choice).
    var goodwillNow = Set<String>()
    for grant in goodwill where (grant.startsAt ?? .distantPast) <= t && (grant.endsAt ?? .distantFuture) > t {
      goodwillNow.insert("\(grant.userId)\u{1F}\(grant.productId)")
    }

    for entitlement in entitlements {
      guard let store = entitlement.source.store, entitlement.isActive(at: t),
        options.storesWithData.contains(store)
      else { continue }
      let excused = goodwillNow.contains("\(entitlement.userId)\u{1F}\(entitlement.productId)")
      if let finding = freeEntitlement(entitlement, store: store, ledger: ledger, options: options, excused: excused) {
        findings.append(finding)
      }
    }

    for (i, chain) in ledger.chains.enumerated() {
      if let finding = orphanedCharge(
        chain, claims: claims.claims[i], entitlements: claims.entitlementsOfChain[i].map { entitlements[$0] },
        options: options)
      {
        findings.append(finding)
      }
      findings.append(contentsOf: duplicateClaims(chain, claims: claims.claims[i]))
    }
    findings.sort(by: Finding.reportOrder)
    return findings
  }

  /// Active store-sourced entitlements per store whose exports the run did not read (not checked).
  public static func uncheckedEntitlements(_ entitlements: [Entitlement], options: ReconcileOptions) -> [Store: Int] {
    var unchecked: [Store: Int] = [:]
    for e in entitlements {
      guard let store = e.source.store, !options.storesWithData.contains(store), e.isActive(at: options.asOf) else {
        continue
      }
      unchecked[store, default: 0] += 1
    }
    return unchecked
  }

  // MARK: free_entitlement

  static func freeEntitlement(
    _ e: Entitlement, store: Store, ledger: Ledger, options: ReconcileOptions, excused: Bool
  ) -> Finding? {
    let t = options.asOf
    let key = e.storeKey ?? ""
    func finding(_ reason: Finding.Reason, _ chain: Chain?, _ detail: String) -> Finding {
      let charge = chain?.latestPaidCharge ?? chain?.purchases.last(where: { $0.amountMinor > 0 })
      return Finding(
        reason: reason, store: store, chainKey: chain?.key ?? key, userId: e.userId, productId: e.productId,
        currency: charge?.currency, amountMinor: charge?.amountMinor,
        detail: "entitlement \(e.entitlementId) (\(e.status.rawValue), until \(e.expiresAt?.description ?? "no end")): "
          + detail)
    }
    guard !key.isEmpty, let chain = ledger.chain(store: store, key: key) else {
      return finding(
        .noStoreRecord, nil,
        key.isEmpty ? "names no store purchase" : "the \(store.rawValue) data has no purchase '\(key)'")
    }
    if !chain.production {
      return finding(.sandbox, chain, "only sandbox/test purchases back it")
    }
    switch chain.revocation {
    case .familySharing(let at)?:
      return finding(.refunded, chain, "family sharing removed \(at)")
    case .refund(_, let detail)?:
      return finding(.refunded, chain, detail)
    case nil:
      break
    }
    if let newer = chain.supersededBy {
      return finding(.superseded, chain, "replaced by linked purchase \(newer)")
    }
    let grace = options.graceMs(store)
    guard let paidThrough = chain.paidThrough else {
      let why = chain.pending ? "the purchase is pending" : "the store granted no period"
      return excused ? nil : finding(.storeExpired, chain, why)
    }
    let graceEnd = paidThrough.adding(ms: grace)
    if graceEnd < t {
      return excused
        ? nil : finding(.storeExpired, chain, "store paid through \(paidThrough), + \(options.graceDays[store] ?? 0)d grace is before T \(t)")
    }
    let limit = graceEnd.adding(ms: options.toleranceMs)
    if (e.expiresAt ?? .distantFuture) > limit && paidThrough < .distantFuture && !excused {
      return finding(
        .overextended, chain,
        "runs past store paid-through \(paidThrough) + \(options.graceDays[store] ?? 0)d grace + tolerance")
    }
    if let current = chain.currentProduct, current != e.productId {
      return finding(.productMismatch, chain, "grants \(e.productId) but the chain's current product is \(current)")
    }
    return nil
  }

  // MARK: orphaned_charge

  static func orphanedCharge(
    _ chain: Chain, claims: [Claim], entitlements: [Entitlement], options: ReconcileOptions
  ) -> Finding? {
    let t = options.asOf
    guard chain.production, !chain.pending, !chain.familyShared, let latest = chain.latestPaidCharge else { return nil }
    if claims.isEmpty {
      let currency = latest.currency
      let paid = chain.paidCharges.map { chain.purchases[$0] }.filter { $0.currency == currency }
      let total = paid.reduce(Int64(0)) { $0 + $1.amountMinor }
      return Finding(
        reason: .unclaimed, store: chain.store, chainKey: chain.key, userId: "",
        productId: chain.currentProduct ?? latest.productId, currency: currency, amountMinor: total,
        detail: "\(paid.count) paid charge(s) since \(paid.first?.at.description ?? "?"); no credential or entitlement names this purchase"
          + (chain.accountToken.map { "; the store's account token is \($0)" } ?? ""))
    }
    guard chain.revocation == nil, chain.supersededBy == nil, let paidThrough = chain.paidThrough,
      paidThrough > t.adding(ms: options.toleranceMs)
    else { return nil }
    if entitlements.contains(where: { $0.isActive(at: t) }) { return nil }
    let user = firstClaimer(claims)?.userId ?? ""
    let state =
      entitlements.isEmpty
      ? "no entitlement names it"
      : "its entitlement(s) are not active: "
        + entitlements.map { "\($0.entitlementId) \($0.status.rawValue) until \($0.expiresAt?.description ?? "no end")" }
        .joined(separator: "; ")
    return Finding(
      reason: .lockedOut, store: chain.store, chainKey: chain.key, userId: user,
      productId: chain.currentProduct ?? latest.productId, currency: latest.currency, amountMinor: latest.amountMinor,
      detail: "paid through \(paidThrough) but \(state)")
  }

  // MARK: duplicate_claim

  static func firstClaimer(_ claims: [Claim]) -> Claim? {
    claims.min { a, b in
      let aa = a.at ?? .distantFuture
      let bb = b.at ?? .distantFuture
      return aa != bb ? aa < bb : a.userId < b.userId
    }
  }

  static func duplicateClaims(_ chain: Chain, claims: [Claim]) -> [Finding] {
    let users = Set(claims.map(\.userId))
    guard users.count > 1, let first = firstClaimer(claims) else { return [] }
    let charge = chain.latestPaidCharge
    return users.subtracting([first.userId]).sorted().map { user in
      Finding(
        reason: .multipleUsers, store: chain.store, chainKey: chain.key, userId: user,
        productId: chain.currentProduct ?? "", currency: charge?.currency, amountMinor: charge?.amountMinor,
        detail: "claimed by \(users.count) users; first claimed by \(first.userId)")
    }
  }
}
