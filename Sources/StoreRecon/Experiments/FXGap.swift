/// A credited charge the FX table could not convert: no rate for its currency on or before its day.
public struct FXGap: Sendable, Equatable {
  /// The charge's currency.
  public var currency: Currency
  /// The charge's day (config time zone).
  public var day: CivilDate
  /// The charge: its store, chain and transaction.
  public var store: Store
  public var chainKey: String
  public var transactionId: String

  /// Creates a gap.
  public init(currency: Currency, day: CivilDate, store: Store, chainKey: String, transactionId: String) {
    self.currency = currency
    self.day = day
    self.store = store
    self.chainKey = chainKey
    self.transactionId = transactionId
  }
}
