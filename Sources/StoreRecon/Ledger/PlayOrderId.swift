/// Google Play order ids: `GPA.1234-5678-9012-34567` for the first order, `..N` appended for renewals.
public enum PlayOrderId {
  /// The first order id: `id` without a trailing `..N` renewal suffix.
  public static func base(_ id: String) -> String {
    let bytes = Array(id.utf8)
    var i = bytes.count
    while i > 0 && bytes[i - 1] >= 0x30 && bytes[i - 1] <= 0x39 { i -= 1 }
    if i < bytes.count && i >= 2 && bytes[i - 1] == 0x2E && bytes[i - 2] == 0x2E {
      return String(decoding: bytes[0..<(i - 2)], as: UTF8.self)
    }
    return id
  }

  /// The renewal number of an order id (`..0` is 0), or `nil` for a first order.
  public static func renewal(_ id: String) -> Int? {
    let base = base(id)
    guard base.utf8.count < id.utf8.count else { return nil }
    return Int(id.dropFirst(base.count + 2))
  }

  /// Whether `key` looks like a Play order id rather than a purchase token.
  public static func isOrderId(_ key: String) -> Bool { key.hasPrefix("GPA.") }
}
