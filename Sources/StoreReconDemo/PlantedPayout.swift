package import StoreReconCore

/// A payouts.csv line the demo world was built to contain with a difference (a status other than
/// `adds_up`): the demo's Apple payment, one of its regions or the payment itself.
package struct PlantedPayout: Hashable, Sendable, Comparable {
  package var store: Store = .appStore
  /// `2026-11 USD`.
  package var payoutId: String
  /// The region (`Japan`); empty for the payment.
  package var region: String
  package var status: PayoutLine.Status

  /// Creates a planted line.
  package init(payoutId: String, region: String, status: PayoutLine.Status) {
    self.payoutId = payoutId
    self.region = region
    self.status = status
  }

  /// The run's line as a planted one.
  package init(_ line: PayoutLine) {
    self.init(payoutId: line.payoutId, region: line.region, status: line.status)
    store = line.store
  }

  package static func < (lhs: PlantedPayout, rhs: PlantedPayout) -> Bool {
    (lhs.store.rawValue, lhs.payoutId, lhs.region, lhs.status.rawValue)
      < (rhs.store.rawValue, rhs.payoutId, rhs.region, rhs.status.rawValue)
  }

  /// One line for the check's output and the truth file.
  package var line: String {
    "\(store.rawValue) \(payoutId) \(region.isEmpty ? "payout" : region) \(status.rawValue)"
  }
}
