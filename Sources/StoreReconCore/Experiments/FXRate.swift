/// One row of the FX table: on `date` (and until the next row of the currency), one unit of
/// `currency` is worth `rate` units of the reporting currency.
package struct FXRate: Sendable, Equatable {
  /// The day the rate applies from.
  package var date: CivilDate
  /// The currency converted from.
  package var currency: Currency
  /// Units of the reporting currency per unit of `currency`, exact.
  package var rate: DecimalRate
  /// Where the row came from.
  package var origin: Origin

  /// Creates a rate row.
  package init(date: CivilDate, currency: Currency, rate: DecimalRate, origin: Origin) {
    self.date = date
    self.currency = currency
    self.rate = rate
    self.origin = origin
  }
}
