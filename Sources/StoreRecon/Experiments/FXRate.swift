/// One row of the FX table: on `date` (and until the next row of the currency), one unit of
/// `currency` is worth `rate` units of the reporting currency.
public struct FXRate: Sendable, Equatable {
  /// The day the rate applies from.
  public var date: CivilDate
  /// The currency converted from.
  public var currency: Currency
  /// Units of the reporting currency per unit of `currency`, exact.
  public var rate: DecimalRate
  /// Where the row came from.
  public var origin: Origin

  /// Creates a rate row.
  public init(date: CivilDate, currency: Currency, rate: DecimalRate, origin: Origin) {
    self.date = date
    self.currency = currency
    self.rate = rate
    self.origin = origin
  }
}
