/// A credited charge the FX table could not convert: no rate for its currency on or before its day.
package struct FXGap: Sendable, Equatable {
  /// The charge's currency.
  package var currency: Currency
  /// The charge's day (config time zone).
  package var day: CivilDate
  /// The charge: its store, chain and transaction.
  package var store: Store
  package var chainKey: String
  package var transactionId: String

  /// Creates a gap.
  package init(currency: Currency, day: CivilDate, store: Store, chainKey: String, transactionId: String) {
    self.currency = currency
    self.day = day
    self.store = store
    self.chainKey = chainKey
    self.transactionId = transactionId
  }
}
