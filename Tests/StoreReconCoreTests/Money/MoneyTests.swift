import Testing

@testable import StoreReconCore

@Suite struct MoneyTests {
  let eur = Currency.named("EUR")!
  let jpy = Currency.named("JPY")!
  let kwd = Currency.named("KWD")!
  let clf = Currency.named("CLF")!

  @Test func tableMatchesISO() {
    #expect(Currency.all.count == 189)
    #expect(Currency.all.filter { $0.withdrawn == nil }.count == 178)
    #expect(Currency.named("usd")?.minorUnits == 2)
    #expect(jpy.minorUnits == 0)
    #expect(kwd.minorUnits == 3)
    #expect(clf.minorUnits == 4)
    #expect(Currency.named("XAU")?.minorUnits == nil)
    #expect(Currency.named("ALL")?.numeric == "008")
    #expect(Currency.named("BGN")?.withdrawn == "2026-01")
    #expect(Currency.named("XYZ") == nil)
  }

  @Test(arguments: [
    ("4.99", "EUR", Int64(499)), (".70", "EUR", 70), ("-85.43", "RUB", -8543), ("2990.00", "KZT", 299_000),
    ("179", "JPY", 179), ("2990.00", "JPY", 2990), ("1.500", "KWD", 1500), ("1.5", "KWD", 1500),
    ("19.99", "USD", 1999),
    ("0.29", "USD", 29), ("4.35", "USD", 435), ("+3", "USD", 300), ("0.0001", "CLF", 1),
  ])
  func decimalStrings(text: String, code: String, minor: Int64) throws {
    #expect(try Currency.named(code)!.minor(decimal: text) == minor)
  }

  @Test func extraDigitsFailLoudly() {
    #expect(throws: MoneyError.tooPrecise("4.999", currency: "EUR", digits: 2)) {
      try eur.minor(decimal: "4.999")
    }
    #expect(throws: MoneyError.self) { try jpy.minor(decimal: "179.5") }
    #expect(throws: MoneyError.self) { try eur.minor(decimal: "4,99") }
    #expect(throws: MoneyError.self) { try eur.minor(decimal: "") }
    #expect(throws: MoneyError.self) { try eur.minor(decimal: "1e3") }
    #expect(throws: MoneyError.self) { try eur.minor(decimal: "99999999999999999999") }
    #expect(throws: MoneyError.noMinorUnit("XAU")) { try Currency.named("XAU")!.minor(decimal: "1") }
    // Trailing zeros beyond the digits are not money and are accepted.
    #expect((try? eur.minor(decimal: "4.9900")) == 499)
  }

  @Test func storeUnits() throws {
    #expect(try Currency.named("USD")!.minor(milliunits: 10990) == 1099)
    #expect(try jpy.minor(milliunits: 160_000) == 160)
    #expect(try kwd.minor(milliunits: 1500) == 1500)
    #expect(try clf.minor(milliunits: 12) == 120)
    #expect(throws: MoneyError.self) { try Currency.named("USD")!.minor(milliunits: 10995) }
    #expect(try eur.minor(micros: 1_990_000) == 199)
    #expect(throws: MoneyError.self) { try eur.minor(micros: 1_995_000) }
    #expect(try eur.minor(units: 1, nanos: 990_000_000) == 199)
    #expect(try eur.minor(units: -1, nanos: -750_000_000) == -175)
    #expect(try jpy.minor(units: 700, nanos: 0) == 700)
    #expect(throws: MoneyError.self) { try jpy.minor(units: 700, nanos: 500_000_000) }
    #expect(throws: MoneyError.self) { try eur.minor(units: 1, nanos: -5) }
  }

  @Test func formatting() {
    #expect(eur.format(499) == "4.99")
    #expect(eur.format(-50) == "-0.50")
    #expect(eur.format(5) == "0.05")
    #expect(jpy.format(179) == "179")
    #expect(kwd.format(1500) == "1.500")
    #expect(clf.format(-1) == "-0.0001")
  }

  /// Property: for every currency with a minor unit, parse(format(x)) == x for a spread of amounts.
  @Test func formatParseRoundTripsForEveryCurrency() throws {
    let samples: [Int64] = [
      0, 1, -1, 7, 10, 99, 100, 101, 499, 1999, -8543, 123_456_789, 9_000_000_000_000, -9_000_000_000_001,
    ]
    var checked = 0
    for currency in Currency.all where currency.minorUnits != nil {
      for x in samples {
        let text = currency.format(x)
        #expect(try currency.minor(decimal: text) == x, "\(currency.code) \(text)")
        checked += 1
      }
    }
    #expect(checked == Currency.all.filter { $0.minorUnits != nil }.count * samples.count)
  }

  @Test func halfEvenRounding() {
    let r = RoundingRule.halfEven
    #expect(r.divide(2485, by: 10) == 248)
    #expect(r.divide(2495, by: 10) == 250)
    #expect(r.divide(-2485, by: 10) == -248)
    #expect(RoundingRule.halfUp.divide(2485, by: 10) == 249)
    #expect(RoundingRule.halfUp.divide(-2485, by: 10) == -249)
    #expect(r.scale(497, numerator: 50_000, denominator: 100_000) == 248)
    #expect(r.scale(Int64.max / 2, numerator: 3, denominator: 3) == Int64.max / 2)
  }
}
