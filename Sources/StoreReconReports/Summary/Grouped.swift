package import StoreReconCore

/// Numbers as the summaries print them: thousands separated by `,`, money with its currency's own
/// minor units (`12,300 JPY`, `1,234.500 KWD`, `-1,000.00 USD`).
package enum Grouped {
  /// A whole number with thousands separators: `1,830`.
  package static func count(_ value: Int) -> String { integer(Int64(value)) }

  /// A share as a percentage with one decimal, a whole one without: `0.2345` → `23.5%`, `0.5` → `50%`
  /// (the share's three decimals rounded half to even; `?` for a share that is not finite).
  package static func percent(_ share: Double) -> String {
    guard share.isFinite, abs(share) < 1e12 else { return "?" }
    let text = Currency.render(Int64((share * 1000).rounded(.toNearestOrEven)), scale: 1)
    return (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + "%"
  }

  /// A whole number with thousands separators: `-1,234,567`.
  package static func integer(_ value: Int64) -> String {
    let out = separated(String(value.magnitude))
    return value < 0 ? "-" + out : out
  }

  /// A run of digits with `,` before each group of three from the right.
  static func separated(_ digits: String) -> String {
    var out = ""
    for (i, digit) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return out
  }

  /// `minor` minor units with the currency's digits and thousands separators, without the code:
  /// `1,234.56`.
  package static func amount(_ minor: Int64, _ currency: Currency) -> String {
    let plain = currency.format(minor)
    let negative = plain.hasPrefix("-")
    let unsigned = negative ? String(plain.dropFirst()) : plain
    let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    var out = separated(parts.first.map(String.init) ?? "")
    if parts.count == 2 { out += "." + parts[1] }
    return negative ? "-" + out : out
  }

  /// `1,234.56 USD`.
  package static func money(_ money: Money) -> String {
    "\(amount(money.minor, money.currency)) \(money.currency.code)"
  }
}
