/// Derives a chain's state as of T from its records: DESIGN.md, "Purchase chains".
enum ChainDerivation {
  static func derive(_ chain: inout Chain, asOf t: Instant, catalog: Catalog) {
    // Filter and sort only when needed: most chains arrive in order and entirely before T.
    if chain.purchases.contains(where: { $0.at > t }) { chain.purchases.removeAll { $0.at > t } }
    if !isSorted(chain.purchases, by: purchaseOrder) { chain.purchases.sort(by: purchaseOrder) }
    let eventOrder: (StoreTransaction, StoreTransaction) -> Bool = { ($0.at, $0.transactionId) < ($1.at, $1.transactionId) }
    if !chain.refunds.isEmpty {
      chain.refunds.removeAll { $0.at > t }
      if !isSorted(chain.refunds, by: eventOrder) { chain.refunds.sort(by: eventOrder) }
    }
    if !chain.voids.isEmpty {
      chain.voids.removeAll { $0.at > t }
      if !isSorted(chain.voids, by: eventOrder) { chain.voids.sort(by: eventOrder) }
    }
    if let status = chain.status, status.at != .distantPast, status.at > t { chain.status = nil }
    chain.orderBaseIds.sort()
    if chain.store == .play {
      derivePlay(&chain, asOf: t, catalog: catalog)
    } else {
      deriveAppStore(&chain, asOf: t, catalog: catalog)
    }
  }

  static func isSorted(_ records: [StoreTransaction], by less: (StoreTransaction, StoreTransaction) -> Bool) -> Bool {
    guard records.count > 1 else { return true }
    for i in 1..<records.count where less(records[i], records[i - 1]) { return false }
    return true
  }

  /// Purchases oldest first; a Play renewal `..N` after its first order on equal instants.
  static func purchaseOrder(_ a: StoreTransaction, _ b: StoreTransaction) -> Bool {
    if a.at != b.at { return a.at < b.at }
    let ra = PlayOrderId.renewal(a.transactionId) ?? -1
    let rb = PlayOrderId.renewal(b.transactionId) ?? -1
    if ra != rb { return ra < rb }
    return a.transactionId < b.transactionId
  }

  static func type(of record: StoreTransaction, catalog: Catalog) -> ProductType {
    if let known = catalog.product(record.productId, store: record.store)?.type { return known }
    return record.productType
  }

  static func isRevoked(_ record: StoreTransaction, asOf t: Instant) -> Bool {
    guard let at = record.revokedAt else { return false }
    return at <= t
  }

  // MARK: App Store (and any store whose records carry their own periods)

  static func deriveAppStore(_ chain: inout Chain, asOf t: Instant, catalog: Catalog) {
    let backing = chain.purchases.indices.filter { type(of: chain.purchases[$0], catalog: catalog) != .consumable }
    chain.production = chain.purchases.contains { $0.environment == .production }
    chain.familyShared = !chain.purchases.isEmpty && chain.purchases.allSatisfy(\.familyShared)
    chain.currentProduct = (backing.last.map { chain.purchases[$0] } ?? chain.purchases.last)?.productId

    var paidThrough: Instant?
    for (n, i) in backing.enumerated() {
      let purchase = chain.purchases[i]
      guard !isRevoked(purchase, asOf: t) else { continue }
      var end: Instant
      if type(of: purchase, catalog: catalog) == .nonConsumable {
        end = .distantFuture
      } else if let expires = purchase.expiresAt {
        end = expires
      } else {
        end = catalog.period(purchase.productId, store: chain.store).advance(purchase.at)
      }
      if purchase.isUpgraded {
        // An upgraded transaction stops backing access when the next transaction of its chain starts.
        let purchases = chain.purchases
        if let next = backing[(n + 1)...].first(where: { purchases[$0].at >= purchase.at }) {
          end = min(end, purchases[next].at)
        }
      }
      paidThrough = max(paidThrough ?? end, end)
    }
    chain.paidThrough = paidThrough

    if let latest = backing.last.map({ chain.purchases[$0] }), let at = latest.revokedAt, at <= t {
      let type = latest.revocationType?.uppercased()
      if type == "FAMILY_REVOKE" || latest.familyShared {
        chain.revocation = .familySharing(at: at)
      } else if latest.isUpgraded && type == nil && latest.revocationReason == nil {
        // Revoked because the customer upgraded: not a refund; the period simply no longer backs access.
      } else {
        var detail = "refunded \(at)"
        if let type { detail += " (\(type)" + (latest.revocationPercentMilli.map { ", \(Percent.milli($0))" } ?? "") + ")" }
        chain.revocation = .refund(at: at, detail: detail)
      }
    }

    chain.paidCharges = chain.purchases.indices.filter { i in
      let p = chain.purchases[i]
      return p.amountMinor > 0 && p.environment == .production && !p.familyShared && !isRevoked(p, asOf: t)
    }
  }

  // MARK: Google Play

  static func derivePlay(_ chain: inout Chain, asOf t: Instant, catalog: Catalog) {
    let status = chain.status
    chain.pending = status?.pending ?? false
    let tester = status?.environment == .test || chain.purchases.contains { $0.environment == .test }
    chain.production = !tester && (chain.purchases.isEmpty || chain.purchases.contains { $0.environment == .production })

    var returned: [String: Instant] = [:]
    for record in chain.refunds + chain.voids where !record.transactionId.isEmpty {
      returned[record.transactionId] = min(returned[record.transactionId] ?? record.at, record.at)
    }

    var latest: StoreTransaction?
    if let id = status?.latestOrderId, let match = chain.purchases.last(where: { $0.transactionId == id }) {
      latest = match
    } else {
      latest = chain.purchases.last
    }
    chain.currentProduct = status.flatMap { $0.productId.isEmpty ? nil : $0.productId } ?? latest?.productId

    let latestOrder = latest?.transactionId ?? status?.latestOrderId
    if let latestOrder, let at = returned[latestOrder] {
      let how = chain.refunds.contains { $0.transactionId == latestOrder } ? "refund row" : "voided purchase"
      chain.revocation = .refund(at: at, detail: "latest order \(latestOrder) returned (\(how)) \(at)")
    } else if latestOrder == nil || status != nil,
      let blanket = chain.voids.first(where: { $0.transactionId.isEmpty })
    {
      chain.revocation = .refund(at: blanket.at, detail: "purchase voided \(blanket.at)")
    }

    if let status, let expires = status.expiresAt {
      chain.paidThrough = expires
    } else {
      var paidThrough: Instant?
      for purchase in chain.purchases where returned[purchase.transactionId] == nil {
        let end: Instant?
        switch type(of: purchase, catalog: catalog) {
        case .nonConsumable: end = .distantFuture
        case .consumable: end = nil
        default: end = catalog.period(purchase.productId, store: .play).advance(purchase.at)
        }
        if let end { paidThrough = max(paidThrough ?? end, end) }
      }
      chain.paidThrough = paidThrough
    }

    chain.paidCharges = chain.purchases.indices.filter { i in
      let p = chain.purchases[i]
      return p.amountMinor > 0 && p.environment == .production && !chain.pending && !tester
        && returned[p.transactionId] == nil
    }
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
