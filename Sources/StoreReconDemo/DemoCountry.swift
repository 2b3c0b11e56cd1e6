import StoreReconCore

/// A country Acme sells in: its store identifiers, currency, tax convention and exact price list.
struct DemoCountry: Sendable {
  /// ISO 3166-1 alpha-2 (Play `Country of Buyer`, `regionCode`).
  let alpha2: String
  /// ISO 3166-1 alpha-3 (Apple `storefront`).
  let alpha3: String
  /// Apple `storefrontId`.
  let storefrontId: String
  /// Currency of the price list.
  let currency: Currency
  /// Sales tax or VAT in basis points.
  let taxBasisPoints: Int64
  /// Whether list prices include the tax (VAT countries) or tax is added on top (US).
  let taxIncluded: Bool
  /// Minor units by tier: monthly, monthly-hi, yearly, lifetime, coins.
  let prices: [Int64]
  /// Relative share of users.
  let weight: Int

  /// Customer price of one unit of a tier, tax included where the country includes it.
  func price(_ tier: DemoProduct.Tier) -> Int64 { prices[tier.rawValue] }

  /// Play's split of a charge of one unit: item price before tax, tax, and charged amount.
  func playAmounts(_ tier: DemoProduct.Tier) -> (item: Int64, tax: Int64, charged: Int64) {
    let list = price(tier)
    if taxIncluded {
      let item = RoundingRule.halfEven.scale(list, numerator: 10_000, denominator: 10_000 + taxBasisPoints)
      return (item, list - item, list)
    }
    let tax = RoundingRule.halfEven.scale(list, numerator: taxBasisPoints, denominator: 10_000)
    return (list, tax, list + tax)
  }

  /// Every country of the demo, in a fixed order.
  static func all() throws -> [DemoCountry] {
    func make(
      _ alpha2: String, _ alpha3: String, _ storefront: String, _ code: String, _ tax: Int64,
      _ included: Bool,
      _ prices: [Int64], _ weight: Int
    ) throws -> DemoCountry {
      guard let currency = Currency.named(code), currency.minorUnits != nil else {
        throw DemoError.unknownCurrency(code)
      }
      return DemoCountry(
        alpha2: alpha2, alpha3: alpha3, storefrontId: storefront, currency: currency, taxBasisPoints: tax,
        taxIncluded: included, prices: prices, weight: weight)
    }
    return [
      try make("US", "USA", "143441", "USD", 625, false, [499, 699, 3999, 7999, 99], 36),
      try make("DE", "DEU", "143443", "EUR", 1900, true, [499, 699, 3999, 7999, 99], 12),
      try make("FR", "FRA", "143442", "EUR", 2000, true, [499, 699, 3999, 7999, 99], 8),
      try make("GB", "GBR", "143444", "GBP", 2000, true, [449, 599, 3499, 6999, 89], 10),
      try make("JP", "JPN", "143462", "JPY", 1000, true, [700, 1000, 6000, 12000, 150], 10),
      try make("KW", "KWT", "143493", "KWD", 0, true, [1500, 2000, 12000, 24000, 300], 3),
      try make("CH", "CHE", "143459", "CHF", 810, true, [490, 690, 3900, 7900, 100], 6),
      try make("BR", "BRA", "143503", "BRL", 0, true, [1990, 2790, 15990, 29990, 490], 15),
    ]
  }
}
