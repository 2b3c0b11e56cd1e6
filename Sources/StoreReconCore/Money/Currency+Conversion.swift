extension Currency {
  /// The currency's minor-unit digits, or an error for codes without a minor unit.
  package func digits() throws(MoneyError) -> Int {
    guard let digits = minorUnits else { throw .noMinorUnit(code) }
    return digits
  }

  /// Converts an amount given in units of 10^-`scale` of the currency into exact minor units; `scale`
  /// is from 0 to 18 (the powers of ten an `Int64` holds).
  ///
  /// Fails when a non-zero digit would be dropped or the result does not fit an `Int64`.
  package func minor(scaled value: Int64, scale: Int) throws(MoneyError) -> Int64 {
    precondition(
      Pow10.exponents.contains(scale), "Currency.minor(scaled:scale:): the scale is 0 to 18 (given \(scale))")
    return try exactMinor(value, scale: scale)
  }

  /// ``minor(scaled:scale:)`` for a scale known to be within 0…18: the per-record conversions, whose
  /// scales are constants (3, 6), take this path, so their inner loops carry no check.
  @inline(__always)
  private func exactMinor(_ value: Int64, scale: Int) throws(MoneyError) -> Int64 {
    let digits = try digits()
    var minor = value
    if scale > digits {
      let divisor = Pow10.int64(scale - digits)
      guard value % divisor == 0 else {
        throw .tooPrecise(Currency.render(value, scale: scale), currency: code, digits: digits)
      }
      minor = value / divisor
    } else if scale < digits {
      let (product, overflow) = value.multipliedReportingOverflow(by: Pow10.int64(digits - scale))
      guard !overflow else { throw .overflow(Currency.render(value, scale: scale)) }
      minor = product
    }
    // One row's amount beyond the bound is no real charge (docs/inputs.md#amounts-beyond-the-bound).
    guard MoneyBound.holds(minor) else { throw .overflow(Currency.render(value, scale: scale)) }
    return minor
  }

  /// Apple's `price`: milliunits (1 unit = 1000) to minor units, exactly.
  package func minor(milliunits: Int64) throws(MoneyError) -> Int64 {
    try exactMinor(milliunits, scale: 3)
  }

  /// Google's `priceAmountMicros`: micro-units (1 unit = 1,000,000) to minor units, exactly.
  package func minor(micros: Int64) throws(MoneyError) -> Int64 {
    try exactMinor(micros, scale: 6)
  }

  /// Google's `Money{units, nanos}` (nanos in 10^-9, same sign as units) to minor units, exactly.
  package func minor(units: Int64, nanos: Int32) throws(MoneyError) -> Int64 {
    let digits = try digits()
    let text = "\(units) units \(nanos) nanos"
    guard nanos > -1_000_000_000 && nanos < 1_000_000_000,
      units == 0 || nanos == 0 || (units < 0) == (nanos < 0)
    else { throw .notANumber(text) }
    let (whole, overflow) = units.multipliedReportingOverflow(by: Pow10.int64(digits))
    guard !overflow else { throw .overflow(text) }
    let divisor = Pow10.int64(9 - digits)
    guard Int64(nanos) % divisor == 0 else { throw .tooPrecise(text, currency: code, digits: digits) }
    let (sum, overflow2) = whole.addingReportingOverflow(Int64(nanos) / divisor)
    guard !overflow2, MoneyBound.holds(sum) else { throw .overflow(text) }
    return sum
  }

  /// A decimal string in major units (`4.99`, `.70`, `-85.43`, `2990.00`, `179`, `+1.5`) to minor units.
  ///
  /// Trailing zeros beyond the currency's digits are accepted (`2990.00` JPY is 2990); any other
  /// extra digit is an error, never silently dropped. No exponent notation, no thousands separators.
  package func minor(decimal text: String) throws(MoneyError) -> Int64 {
    var text = text
    let result: Result<Int64, MoneyError> = text.withUTF8 { bytes in
      Result { () throws(MoneyError) -> Int64 in try minor(decimalBytes: bytes) }
    }
    return try result.get()
  }

  /// Writes `minor` minor units with exactly the currency's digits: `4.99`, `-0.50`, `179`, `1.500`.
  package func format(_ minor: Int64) -> String {
    Currency.render(minor, scale: minorUnits ?? 0)
  }

  /// `value` units of 10^-`scale` as a decimal: `render(-50, scale: 2)` is `-0.50`. `scale` is not
  /// negative.
  package static func render(_ value: Int64, scale: Int) -> String {
    // Checked here, where a String is built anyway: a negative scale would print no point at all.
    precondition(scale >= 0, "Currency.render(_:scale:): the scale is not negative (given \(scale))")
    // The digits from the last, into one byte buffer (a workbook renders every money cell: one
    // allocation, no Character indexing).
    var magnitude = value.magnitude
    var bytes: [UInt8] = []
    bytes.reserveCapacity(max(20, scale + 2) + 2)
    var written = 0
    repeat {
      if scale > 0 && written == scale { bytes.append(UInt8(ascii: ".")) }
      bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
      magnitude /= 10
      written += 1
    } while magnitude > 0 || written <= scale
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    bytes.reverse()
    return String(decoding: bytes, as: UTF8.self)
  }

  /// How many decimal digits `value` has (1 for 0).
  package static func decimalDigits(_ value: UInt64) -> Int {
    var count = 1
    var rest = value
    while rest >= 10 {
      rest /= 10
      count += 1
    }
    return count
  }
}

/// Powers of ten as exact integers.
package enum Pow10 {
  static let table: [Int64] = exponents.map { exponent in
    var value: Int64 = 1
    for _ in 0..<exponent { value *= 10 }
    return value
  }

  /// The exponents ``int64(_:)`` knows: 0...18.
  package static let exponents = 0...18

  /// 10^exponent for 0...18 (beyond them the table's own bounds check traps).
  package static func int64(_ exponent: Int) -> Int64 { table[exponent] }
}
