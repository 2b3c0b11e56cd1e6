package import StoreReconCore

/// The app's own rows, as read for one run.
package struct AppRowSet {
  /// No rows yet.
  package init() {}

  package var entitlements = PackedEntitlements()
  package var credentials = PackedCredentials()
  package var assignments: [Assignment] = []
  package var goodwill: [GoodwillGrant] = []
  package var fxRates: [FXRate] = []
}
