/// The FX conversions of recent (currency, day) pairs, so that a charge's three amounts and the
/// charges of the same currency and day look the table up once. Direct-mapped; a cache only: the
/// conversions are the table's.
struct FXDayCache {
  private let table: FXRateBook
  private var keys: [Int64]
  private var values: [FXRateBook.Conversion?]
  private static let size = 4096

  init(_ table: FXRateBook) {
    self.table = table
    keys = Array(repeating: -1, count: FXDayCache.size)
    values = Array(repeating: nil, count: FXDayCache.size)
  }

  /// The conversion of `currency` on `day` (`nil`: no rate).
  @inline(__always)
  mutating func conversion(_ currency: Currency, on day: CivilDate) -> FXRateBook.Conversion? {
    let key = Int64(currency.tableIndex) << 40 | (day.daysSinceEpoch & 0xFF_FFFF_FFFF)
    let slot = Int(truncatingIfNeeded: SeededGenerator.mix(UInt64(bitPattern: key))) & (FXDayCache.size - 1)
    if keys[slot] == key { return values[slot] }
    let value = table.conversion(from: currency, on: day)
    keys[slot] = key
    values[slot] = value
    return value
  }
}
