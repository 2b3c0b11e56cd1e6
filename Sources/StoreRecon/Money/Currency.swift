/// An ISO 4217 currency: its alphabetic code, numeric code and number of minor-unit digits.
///
/// Two currencies are equal when their codes are equal. `minorUnits` is `nil` for codes that have
/// no minor unit in ISO 4217 (metals, bond units, XDR, XTS, XXX…); such codes cannot hold money here.
public struct Currency: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The three-letter alphabetic code, upper case (`EUR`).
  public let code: String
  /// The three-digit numeric code as text, leading zeros kept (`008`).
  public let numeric: String
  /// Decimal digits of the minor unit (JPY 0, USD 2, KWD 3, CLF 4); `nil` where ISO says N.A.
  public let minorUnits: Int?
  /// The ISO name.
  public let name: String
  /// Year and month the code was withdrawn (`2026-01`), or `nil` for a current code.
  public let withdrawn: String?

  init(code: String, numeric: String, minorUnits: Int?, name: String, withdrawn: String?) {
    self.code = code
    self.numeric = numeric
    self.minorUnits = minorUnits
    self.name = name
    self.withdrawn = withdrawn
  }

  public static func == (lhs: Currency, rhs: Currency) -> Bool { lhs.code == rhs.code }
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }
  public static func < (lhs: Currency, rhs: Currency) -> Bool { lhs.code < rhs.code }
  public var description: String { code }

  /// All known currencies: the current ISO 4217 list, then recently withdrawn codes.
  public static var all: [Currency] { iso4217Table }

  private static let byKey: [UInt32: Currency] = {
    var map: [UInt32: Currency] = [:]
    for currency in iso4217Table {
      if let key = packKey(Array(currency.code.utf8)) { map[key] = currency }
    }
    return map
  }()

  private static func packKey<C: Collection<UInt8>>(_ bytes: C) -> UInt32? {
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
  public static func named(_ code: String) -> Currency? {
    var code = code
    return code.withUTF8 { named(bytes: $0) }
  }

  /// The currency whose code these UTF-8 bytes spell (case-insensitive), or `nil`.
  public static func named<C: Collection<UInt8>>(bytes: C) -> Currency? {
    guard let key = packKey(bytes) else { return nil }
    return byKey[key]
  }
}
