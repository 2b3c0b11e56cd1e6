/// An exact amount of money: an integer count of its currency's minor units.
package struct Money: Hashable, Sendable, CustomStringConvertible {
  /// Minor units (cents for USD, yen for JPY, fils for KWD).
  package var minor: Int64
  /// The currency the minor units are counted in.
  package var currency: Currency

  /// Creates an amount of `minor` minor units of `currency`.
  package init(minor: Int64, currency: Currency) {
    self.minor = minor
    self.currency = currency
  }

  /// The amount written with the currency's own digits, then its code: `4.99 EUR`, `179 JPY`.
  package var description: String { "\(currency.format(minor)) \(currency.code)" }
}
