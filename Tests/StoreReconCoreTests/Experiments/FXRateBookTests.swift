import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// Exact FX: decimal rates kept as integers, the rate of the day or the latest earlier one, one
/// half-even rounding per charge, and a missing rate reported as a gap.
@Suite struct FXTableTests {
  static let eur = Ex.currency("EUR")
  static let jpy = Ex.currency("JPY")
  static let kwd = Ex.currency("KWD")
  static let gbp = Ex.currency("GBP")

  @Test func ratesParseExactly() throws {
    #expect(try DecimalRate.parse("1.0845") == DecimalRate(mantissa: 10845, scale: 4))
    #expect(try DecimalRate.parse("0.006712") == DecimalRate(mantissa: 6712, scale: 6))
    #expect(try DecimalRate.parse("1.50") == DecimalRate(mantissa: 15, scale: 1))
    #expect(try DecimalRate.parse("3") == DecimalRate(mantissa: 3, scale: 0))
    #expect(try DecimalRate.parse(".5") == DecimalRate(mantissa: 5, scale: 1))
    #expect(try DecimalRate.parse("0.000000000001") == DecimalRate(mantissa: 1, scale: 12))
    #expect(throws: DecimalRate.ParseError.notPositive("0.000")) { try DecimalRate.parse("0.000") }
    #expect(throws: DecimalRate.ParseError.notADecimal("-1.2")) { try DecimalRate.parse("-1.2") }
    #expect(throws: DecimalRate.ParseError.notADecimal("1,08")) { try DecimalRate.parse("1,08") }
    #expect(throws: DecimalRate.ParseError.notADecimal("1e3")) { try DecimalRate.parse("1e3") }
    #expect(throws: DecimalRate.ParseError.notADecimal("")) { try DecimalRate.parse("") }
    #expect(throws: DecimalRate.ParseError.tooPrecise("0.0000000000001")) {
      try DecimalRate.parse("0.0000000000001")
    }
    #expect(try DecimalRate.parse("1.0845").description == "1.0845")
  }

  @Test func conversionRoundsHalfEvenOncePerChargeThenSums() throws {
    // EUR 1.0850: 0.10 EUR → 10.85 cents → 11; 0.02 EUR → 2.17 → 2; ties go to the even cent:
    // 1.00 EUR → 108.5 → 108, 3.00 EUR → 325.5 → 326 (half-up would give 109).
    let table = FXRateBook(reporting: Fx.usd, rows: [Ex.rate("2026-09-01", "EUR", "1.0850")])
    let day = CivilDate(year: 2026, month: 9, day: 15)
    #expect(table.convert(10, from: Self.eur, on: day, rounding: .halfEven) == 11)
    #expect(table.convert(2, from: Self.eur, on: day, rounding: .halfEven) == 2)
    #expect(table.convert(100, from: Self.eur, on: day, rounding: .halfEven) == 108)
    #expect(table.convert(300, from: Self.eur, on: day, rounding: .halfEven) == 326)
    #expect(table.convert(-100, from: Self.eur, on: day, rounding: .halfEven) == -108)
    #expect(table.convert(100, from: Self.eur, on: day, rounding: .halfUp) == 109)
    // Per charge then summed: 4 charges of 1.00 EUR are 4 × 108 = 432 cents, not round(400 × 1.085) = 434.
    let perCharge = (0..<4).compactMap { _ in table.convert(100, from: Self.eur, on: day, rounding: .halfEven)
    }
    #expect(perCharge.reduce(0, +) == 432)
    // Different digits: JPY (0) and KWD (3) into USD (2).
    let rates = FXRateBook(
      reporting: Fx.usd,
      rows: [Ex.rate("2026-09-01", "JPY", "0.006712"), Ex.rate("2026-09-01", "KWD", "3.2561")])
    #expect(rates.convert(700, from: Self.jpy, on: day, rounding: .halfEven) == 470)  // 4.6984 USD
    #expect(rates.convert(1500, from: Self.kwd, on: day, rounding: .halfEven) == 488)  // 4.88415 USD
    // Into JPY (0 digits) from USD: 4.99 USD × 149.25 = 744.7575 → 745.
    let yen = FXRateBook(reporting: Self.jpy, rows: [Ex.rate("2026-09-01", "USD", "149.25")])
    #expect(yen.convert(499, from: Fx.usd, on: day, rounding: .halfEven) == 745)
    // The reporting currency converts to itself.
    #expect(table.convert(499, from: Fx.usd, on: day, rounding: .halfEven) == 499)
  }

  @Test func rateOfTheDayOrTheLatestEarlierOneElseAGap() {
    let table = FXRateBook(
      reporting: Fx.usd,
      rows: [
        Ex.rate("2026-09-01", "EUR", "1.08"), Ex.rate("2026-09-10", "EUR", "1.10"),
        Ex.rate("2026-09-20", "EUR", "1.12"),
      ])
    func on(_ d: Int) -> Int64? {
      table.convert(10_000, from: Self.eur, on: CivilDate(year: 2026, month: 9, day: d), rounding: .halfEven)
    }
    #expect(on(1) == 10_800)
    #expect(on(9) == 10_800)
    #expect(on(10) == 11_000)
    #expect(on(19) == 11_000)
    #expect(on(30) == 11_200)
    #expect(
      table.convert(100, from: Self.eur, on: CivilDate(year: 2026, month: 8, day: 31), rounding: .halfEven)
        == nil)
    #expect(
      table.convert(100, from: Self.gbp, on: CivilDate(year: 2026, month: 9, day: 15), rounding: .halfEven)
        == nil)
  }

  @Test func exactScaleMatchesTheMoneyRoundingAndNeverOverflowsSilently() {
    let seed: UInt64 = 7
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<2000 {
      let amount = Int64(generator.below(2_000_000)) - 1_000_000
      let factor = Int64(generator.below(1_000_000))
      let down = generator.below(9)
      for rule in [RoundingRule.halfEven, .halfUp, .down] {
        let expected = rule.scale(amount, numerator: factor, denominator: Pow10.int64(down))
        #expect(
          ExactScale.apply(amount, factor: factor, up: 0, down: down, rounding: rule) == expected,
          "seed \(seed): \(amount) × \(factor) / 10^\(down), \(rule)")
      }
    }
    // 128-bit intermediate: 9e15 × 9e15 / 1e15 fits; 9e18 × 9e18 does not.
    #expect(
      ExactScale.apply(
        9_000_000_000_000_000, factor: 9_000_000_000_000_000, up: 0, down: 15, rounding: .halfEven)
        == 81_000_000_000_000_000)
    #expect(ExactScale.apply(Int64.max, factor: Int64.max, up: 0, down: 0, rounding: .halfEven) == nil)
    #expect(ExactScale.apply(Int64.max, factor: 10, up: 18, down: 0, rounding: .halfEven) == nil)
  }

  @Test func missingRateIsAGapNeverAZero() {
    var gbpCharge = Ex.apple("1", "1", "2026-09-10T10:00:00Z", price: 449)
    gbpCharge.currency = Self.gbp
    let r = Ex.readout(
      [gbpCharge, Ex.apple("2", "2", "2026-09-11T10:00:00Z")],
      credentials: [Fx.cred(key: "1", user: "u1"), Fx.cred(key: "2", user: "u2")],
      assignments: [
        Ex.assign("u1", "control", "2026-09-09T00:00:00Z"), Ex.assign("u2", "high", "2026-09-09T00:00:00Z"),
      ],
      fx: [Ex.rate("2026-09-15", "GBP", "1.27")])  // only from after the charge
    #expect(r.fxGaps.count == 1)
    #expect(r.fxGaps.first?.currency == Self.gbp && r.fxGaps.first?.transactionId == "1")
    #expect(r.lineage.first { $0.transactionId == "1" }?.reportingMinor == nil)
    #expect(r.arms[0].reporting.proceedsMinor == 0)  // the reporting row leaves the gap out …
    let gbpRow = r.arms[0].currencies.first
    #expect(gbpRow?.currency == Self.gbp)
    #expect(gbpRow?.proceedsMinor == Int64(449 - 135))  // … the GBP row has it
    #expect(r.arms.allSatisfy { $0.verdict == .fxGap })  // … and no winner is named
  }
}
