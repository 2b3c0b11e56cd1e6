package import StoreReconCore

/// The app's own rows, as read for one run.
package struct AppRowSet {
  /// No rows yet.
  package init() {}

  package var entitlements = PackedEntitlements()
  package var credentials = PackedCredentials()
  package var assignments: [Assignment] = []
  package var goodwill: [GoodwillGrant] = []
  /// The credits contract's rows; `nil` where the run reads none (no credit rules).
  package var credits: [CreditRow]?
  package var fxRates: [FXRate] = []

  /// How many rows the set holds, all contracts together.
  package var count: Int {
    entitlements.count + credentials.count + assignments.count + goodwill.count + (credits?.count ?? 0)
      + fxRates.count
  }
}
