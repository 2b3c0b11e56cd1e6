package import StoreReconCore
package import StoreReconIO

/// Stripe's API amounts (integers in Stripe's smallest unit of a lowercase currency code) as exact
/// ISO 4217 minor units: docs/inputs.md#stripe-money.
///
/// Stripe's smallest unit is the ISO minor unit except for its zero-decimal currencies (amounts in
/// whole units, among them MGA, which ISO gives two digits) and ISK, which Stripe keeps two-decimal
/// (`100` is one króna) while ISO gives it none. HUF and TWD are charged with two decimals in the API,
/// as ISO has them; UGX is zero-decimal in both.
package enum StripeCurrency {
  /// Stripe's zero-decimal currencies: an amount is a number of whole units.
  package static let zeroDecimal: Set<String> = [
    "BIF", "CLP", "DJF", "GNF", "JPY", "KMF", "KRW", "MGA", "PYG", "RWF", "UGX", "VND", "VUV", "XAF",
    "XOF", "XPF",
  ]

  /// Currencies Stripe keeps with two decimals although ISO 4217 gives them fewer.
  package static let twoDecimal: Set<String> = ["ISK"]

  /// The decimal places of Stripe's smallest unit of `currency`.
  package static func exponent(_ currency: Currency) throws(MoneyError) -> Int {
    if zeroDecimal.contains(currency.code) { return 0 }
    if twoDecimal.contains(currency.code) { return 2 }
    return try currency.digits()
  }

  /// The currency a Stripe code names (`usd`), rejecting an unknown one.
  package static func named(_ code: String) throws(RowRejection) -> Currency {
    guard let currency = Currency.named(code.uppercased()) else {
      throw RowRejection(MoneyError.unknownCurrency(RawText.truncated(code)))
    }
    return currency
  }

  /// `amount` in Stripe's smallest unit of `currency` as ISO minor units; rejects an amount that drops
  /// a digit (ISK `150` is 1.50 króna, which ISO cannot hold) or does not fit.
  package static func minor(_ amount: Int64, _ currency: Currency, field: String) throws(RowRejection)
    -> Int64
  {
    do {
      return try currency.minor(scaled: amount, scale: try exponent(currency))
    } catch {
      throw RowRejection("\(field): \(error.description)")
    }
  }
}
