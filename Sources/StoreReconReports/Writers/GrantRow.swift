package import StoreReconCore

/// One row of `grants.csv` and of the workbook's Grants sheet: a goodwill grant, or an entitlement whose
/// source is goodwill, promo or manual — access given on purpose, never a finding.
package struct GrantRow: Sendable, Equatable {
  /// `goodwill_grant` for a goodwill.csv row, else the entitlement's source (`goodwill`, `promo`, `manual`).
  package var source: String
  /// The grant id or entitlement id.
  package var grantId: String
  package var userId: String
  package var productId: String
  package var startsAt: Instant?
  /// `nil`: no end.
  package var endsAt: Instant?
  /// Whether the grant covers T.
  package var active: Bool
  package var reason: String

  /// The text fields as `grants.csv` writes them.
  package var csvFields: [String] {
    [
      source, grantId, userId, productId, startsAt?.description ?? "", endsAt?.description ?? "",
      active ? "yes" : "no",
      reason,
    ]
  }

  /// Goodwill rows and goodwill/promo/manual entitlements as of `t`, in report order (by their CSV fields).
  package static func rows(goodwill: [GoodwillGrant], entitlements: [Entitlement], asOf t: Instant)
    -> [GrantRow]
  {
    var rows = goodwillRows(goodwill, asOf: t)
    appendEntitlements(entitlements, to: &rows, asOf: t)
    return reportOrder(rows)
  }

  /// `rows` in report order: by their CSV fields (rows with equal fields are equal).
  package static func reportOrder(_ rows: [GrantRow]) -> [GrantRow] {
    let keys = rows.map(\.csvFields)
    var order = Array(rows.indices)
    order.sort { a, b in
      if keys[a].lexicographicallyPrecedes(keys[b]) { return true }
      if keys[b].lexicographicallyPrecedes(keys[a]) { return false }
      return a < b
    }
    return order.map { rows[$0] }
  }

  static func goodwillRows(_ goodwill: [GoodwillGrant], asOf t: Instant) -> [GrantRow] {
    var rows: [GrantRow] = []
    for g in goodwill {
      let active = (g.startsAt ?? .distantPast) <= t && (g.endsAt ?? .distantFuture) > t
      rows.append(
        GrantRow(
          source: "goodwill_grant", grantId: g.grantId, userId: g.userId, productId: g.productId,
          startsAt: g.startsAt,
          endsAt: g.endsAt, active: active, reason: g.reason))
    }
    return rows
  }

  /// Goodwill rows and goodwill/promo/manual entitlements (packed) as of `t`, in report order.
  package static func rows(goodwill: [GoodwillGrant], entitlements: PackedEntitlements, asOf t: Instant)
    -> [GrantRow]
  {
    var rows = goodwillRows(goodwill, asOf: t)
    var grants: [Entitlement] = []
    for (i, e) in entitlements.rows.enumerated() where e.source.store == nil {
      grants.append(entitlements[i])
    }
    appendEntitlements(grants, to: &rows, asOf: t)
    return reportOrder(rows)
  }

  static func appendEntitlements(_ entitlements: [Entitlement], to rows: inout [GrantRow], asOf t: Instant) {
    for e in entitlements where e.source.store == nil {
      rows.append(
        GrantRow(
          source: e.source.rawValue, grantId: e.entitlementId, userId: e.userId, productId: e.productId,
          startsAt: e.startsAt, endsAt: e.expiresAt, active: e.isActive(at: t),
          reason: "\(e.source.rawValue) entitlement (\(e.status.rawValue))"))
    }
  }
}
