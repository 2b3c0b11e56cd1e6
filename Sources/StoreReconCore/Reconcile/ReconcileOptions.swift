/// The knobs of the finding rules: as-of instant, grace allowances and tolerance.
package struct ReconcileOptions: Sendable {
  /// The as-of instant T.
  package var asOf: Instant
  /// Grace allowance per store, in days (App Store 16, Play 30 by default).
  package var graceDays: [Store: Int64] = [.appStore: 16, .play: 30, .stripe: 0]
  /// Tolerance on instants, in milliseconds (24 hours by default).
  package var toleranceMs: Int64 = 24 * 3_600_000
  /// Stores whose exports the run read. An entitlement sourced from a store without any export (no
  /// Stripe importer yet, or a team that sells on one store only) cannot be checked against it: it is
  /// counted as unchecked, never reported as `no_store_record`.
  package var storesWithData: Set<Store> = Set(Store.allCases)
  /// How long after a consumable purchase the app may take to credit it (6 hours by default).
  package var creditGraceMs: Int64 = 6 * 3_600_000
  /// What a consumable purchase is worth (`units`) and which tier a product grants (`tier`).
  package var catalog = Catalog()

  /// Options for as-of instant `asOf` with the default allowances.
  package init(asOf: Instant) { self.asOf = asOf }

  /// The grace allowance of `store` in milliseconds.
  package func graceMs(_ store: Store) -> Int64 { (graceDays[store] ?? 0) * Instant.msPerDay }
}
