import Foundation
import Testing

@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconWorkbooks

/// The one place money becomes a double: exact decimal text, correctly rounded, per ISO 4217 digits.
struct XLSXMoneyTests {
  @Test func cellValuesAreTheDecimalAmounts() throws {
    #expect(XLSXMoney.cellValue(minor: 499, digits: 2) == 4.99)
    #expect(XLSXMoney.cellValue(minor: -8543, digits: 2) == -85.43)
    #expect(XLSXMoney.cellValue(minor: 70, digits: 2) == 0.7)
    #expect(XLSXMoney.cellValue(minor: 179, digits: 0) == 179)
    #expect(XLSXMoney.cellValue(minor: 1500, digits: 3) == 1.5)
    #expect(XLSXMoney.cellValue(minor: 12_345, digits: 4) == 1.2345)
    #expect(XLSXMoney.cellValue(minor: 0, digits: 3) == 0)
    let kwd = try #require(Currency.named("KWD"))
    #expect(XLSXMoney.cellValue(minor: 1, currency: kwd) == 0.001)
  }

  /// For |minor| ≤ 2^53 the cell value (the IEEE quotient) is exactly what the decimal text parses to.
  @Test func exactBelowTwoToThe53() {
    let seed: UInt64 = 0x715_0001
    var generator = SeededGenerator(seed: seed, stream: "xlsx money")
    let limit: Int64 = 1 << 53
    var samples: [Int64] = [limit - 1, -(limit - 1), 1, -1, 999_999_999_999_999, 123_456_789_012_345]
    // Uniform in -(limit - 1)...(limit - 1): 2^54 - 1 values.
    for _ in 0..<20_000 { samples.append(Int64(generator.below(Int(2 * limit - 1))) - (limit - 1)) }
    for minor in samples {
      for digits in [0, 1, 2, 3, 4, 8, 18] {
        #expect(
          XLSXMoney.cellValue(minor: minor, digits: digits) == Double(Currency.render(minor, scale: digits)),
          "seed \(seed): \(minor) / 10^\(digits)")
      }
    }
  }

  /// Beyond 2^53 (or 18 digits) the value comes from the text: still the nearest double.
  @Test func beyondTwoToThe53TheTextDecides() {
    let large: [Int64] = [Int64.max, Int64.min, (1 << 53) + 1, -(1 << 53) - 3]
    for minor in large {
      #expect(XLSXMoney.cellValue(minor: minor, digits: 2) == Double(Currency.render(minor, scale: 2)))
    }
    #expect(XLSXMoney.cellValue(minor: 5, digits: 19) == 5e-19)
  }

  @Test func numberFormatFollowsTheMinorUnits() throws {
    #expect(XLSXMoney.numberFormat(digits: 0) == "#,##0")
    #expect(XLSXMoney.numberFormat(digits: 2) == "#,##0.00")
    #expect(XLSXMoney.numberFormat(digits: 3) == "#,##0.000")
    #expect(XLSXMoney.numberFormat(digits: 4) == "#,##0.0000")
    for (code, format) in [
      ("JPY", "#,##0"), ("USD", "#,##0.00"), ("KWD", "#,##0.000"), ("CLF", "#,##0.0000"),
    ] {
      let currency = try #require(Currency.named(code))
      #expect(XLSXStyle.money(digits: currency.minorUnits ?? 0).numberFormat == format, "\(code)")
    }
  }

  @Test func displayWidthCountsSeparatorsAndSign() {
    #expect(XLSXMoney.displayWidth(minor: 499, digits: 2) == 4)  // 4.99
    #expect(XLSXMoney.displayWidth(minor: 123_456_789, digits: 2) == 12)  // 1,234,567.89
    #expect(XLSXMoney.displayWidth(minor: -1_000_000, digits: 0) == 10)  // -1,000,000
    #expect(XLSXMoney.displayWidth(minor: 5, digits: 3) == 5)  // 0.005
  }
}
