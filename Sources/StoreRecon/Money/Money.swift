/// An exact amount of money: an integer count of its currency's minor units.
public struct Money: Hashable, Sendable, CustomStringConvertible {
  /// Minor units (cents for USD, yen for JPY, fils for KWD).
  public var minor: Int64
  /// The currency the minor units are counted in.
  public var currency: Currency

  /// Creates an amount of `minor` minor units of `currency`.
  public init(minor: Int64, currency: Currency) {
    self.minor = minor
    self.currency = currency
  }

  /// The amount written with the currency's own digits, then its code: `4.99 EUR`, `179 JPY`.
  public var description: String { "\(currency.format(minor)) \(currency.code)" }
}
