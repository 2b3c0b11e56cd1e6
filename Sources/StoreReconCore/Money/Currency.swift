/// An ISO 4217 currency: its alphabetic code, numeric code and number of minor-unit digits.
///
/// A `Currency` is a two-byte handle into the generated ISO 4217 table, so millions of amounts can
/// carry one cheaply. Two currencies are equal when their codes are equal. `minorUnits` is `nil` for
/// codes that have no minor unit in ISO 4217 (metals, bond units, XDR, XTS, XXX…); such codes cannot
/// hold money here.
public struct Currency: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// One row of the ISO 4217 table.
  struct Entry: Sendable {
    let code: String
    let numeric: String
    let minorUnits: Int?
    let name: String
    let withdrawn: String?
  }

  private let index: UInt16

  private init(index: Int) { self.index = UInt16(index) }

  /// The currency at `tableIndex` in the ISO 4217 table (a handle stored as a number elsewhere).
  init(tableIndex: Int) { self.index = UInt16(truncatingIfNeeded: tableIndex) }

  /// The position of this currency in the ISO 4217 table.
  package var tableIndex: Int { Int(index) }

  private var entry: Entry { Currency.iso4217Entries[Int(index)] }

  /// The three-letter alphabetic code, upper case (`EUR`).
  package var code: String { entry.code }
  /// The three-digit numeric code as text, leading zeros kept (`008`).
  package var numeric: String { entry.numeric }
  /// Decimal digits of the minor unit (JPY 0, USD 2, KWD 3, CLF 4); `nil` where ISO says N.A.
  package var minorUnits: Int? { entry.minorUnits }
  /// The ISO name.
  package var name: String { entry.name }
  /// Year and month the code was withdrawn (`2026-01`), or `nil` for a current code.
  package var withdrawn: String? { entry.withdrawn }

  public static func < (lhs: Currency, rhs: Currency) -> Bool { lhs.code < rhs.code }
  public var description: String { code }

  /// All known currencies: the current ISO 4217 list, then recently withdrawn codes.
  package static let all: [Currency] = iso4217Entries.indices.map { Currency(index: $0) }

  @usableFromInline static let byKey: [UInt32: Currency] = {
    var map: [UInt32: Currency] = [:]
    for (i, entry) in iso4217Entries.enumerated() {
      if let key = packKey(Array(entry.code.utf8)) { map[key] = Currency(index: i) }
    }
    return map
  }()

  @usableFromInline static func packKey<C: Collection<UInt8>>(_ bytes: C) -> UInt32? {
    guard bytes.count == 3 else { return nil }
    var key: UInt32 = 0
    for byte in bytes {
      var b = byte
      if b >= 0x61 && b <= 0x7A { b -= 0x20 }  // Stripe writes "usd"
      guard b >= 0x41 && b <= 0x5A else { return nil }
      key = key << 8 | UInt32(b)
    }
    return key
  }

  /// The currency with this alphabetic code (case-insensitive), or `nil` when the code is unknown.
  package static func named(_ code: String) -> Currency? {
    var code = code
    return code.withUTF8 { named(bytes: $0) }
  }

  /// The currency whose code these UTF-8 bytes spell (case-insensitive), or `nil`.
  @inlinable
  public static func named<C: Collection<UInt8>>(bytes: C) -> Currency? {
    guard let key = packKey(bytes) else { return nil }
    return byKey[key]
  }
}
