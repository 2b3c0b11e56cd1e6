/// Google Play order ids: `GPA.1234-5678-9012-34567` for the first order, `..N` appended for renewals.
package enum PlayOrderId {
  /// The first order id: `id` without a trailing `..N` renewal suffix.
  package static func base(_ id: String) -> String {
    let utf8 = id.utf8
    var i = utf8.endIndex
    while i > utf8.startIndex {
      let j = utf8.index(before: i)
      guard utf8[j] >= 0x30 && utf8[j] <= 0x39 else { break }
      i = j
    }
    guard i < utf8.endIndex, i > utf8.startIndex else { return id }
    let dot2 = utf8.index(before: i)
    guard dot2 > utf8.startIndex, utf8[dot2] == 0x2E else { return id }
    let dot1 = utf8.index(before: dot2)
    guard utf8[dot1] == 0x2E else { return id }
    return String(Substring(utf8[utf8.startIndex..<dot1]))
  }

  /// The renewal number of an order id (`..0` is 0), or `nil` for a first order.
  package static func renewal(_ id: String) -> Int? {
    let base = base(id)
    guard base.utf8.count < id.utf8.count else { return nil }
    return Int(id.dropFirst(base.count + 2))
  }

  /// Whether `key` looks like a Play order id rather than a purchase token.
  package static func isOrderId(_ key: String) -> Bool { key.hasPrefix("GPA.") }
}
