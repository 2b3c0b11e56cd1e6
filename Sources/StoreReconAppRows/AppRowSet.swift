package import StoreReconCore

/// The app's own rows, as read for one run.
package struct AppRowSet {
  /// No rows yet.
  package init() {}

  package var entitlements = EntitlementTable()
  package var credentials = CredentialTable()
  package var assignments: [Assignment] = []
  package var goodwill: [GoodwillGrant] = []
  package var fxRates: [FXRate] = []
}
