import Testing

@testable import StoreReconCore

/// `Currency.render` writes the exact decimal of value × 10^-scale: checked against the plain
/// construction (digits, zero padding, point, sign) on edge and random values.
struct RenderTests {
  /// The text built the obvious way.
  static func reference(_ value: Int64, scale: Int) -> String {
    var digits = String(value.magnitude)
    if scale > 0 {
      if digits.count <= scale { digits = String(repeating: "0", count: scale - digits.count + 1) + digits }
      digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale))
    }
    return value < 0 ? "-" + digits : digits
  }

  @Test func edgeValues() {
    #expect(Currency.render(-50, scale: 2) == "-0.50")
    #expect(Currency.render(0, scale: 0) == "0" && Currency.render(0, scale: 3) == "0.000")
    #expect(Currency.render(7, scale: 0) == "7" && Currency.render(1500, scale: 3) == "1.500")
    #expect(Currency.render(Int64.min, scale: 2) == "-92233720368547758.08")
    #expect(Currency.render(Int64.max, scale: 0) == "9223372036854775807")
    #expect(Currency.render(1, scale: 20) == "0.00000000000000000001")
    #expect(
      Currency.decimalDigits(0) == 1 && Currency.decimalDigits(9) == 1 && Currency.decimalDigits(10) == 2)
    #expect(Currency.decimalDigits(UInt64.max) == 20)
  }

  @Test func randomValuesMatchThePlainConstruction() {
    var generator = SeededGenerator(seed: 0x5EED_0042, stream: "render")
    for _ in 0..<20_000 {
      let magnitude = Int64(generator.below(Int(Int64.max)))
      let shift = generator.below(63)
      let value = (magnitude >> shift) * (generator.below(2) == 0 ? 1 : -1)
      let scale = generator.below(22)
      #expect(
        Currency.render(value, scale: scale) == Self.reference(value, scale: scale), "\(value) \(scale)")
    }
  }
}
