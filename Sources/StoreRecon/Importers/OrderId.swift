/// Google Play order ids: `GPA.1234-5678-9012-34567` for the first order, `..N` appended for renewals.
public enum OrderId {
  /// The order id without a trailing `..N` renewal suffix (the subscription's first order).
  public static func base(_ orderId: String) -> String {
    let bytes = Array(orderId.utf8)
    var index = bytes.count
    while index > 0 && bytes[index - 1] >= 0x30 && bytes[index - 1] <= 0x39 { index -= 1 }
    guard index < bytes.count, index >= 2, bytes[index - 1] == 0x2E, bytes[index - 2] == 0x2E else {
      return orderId
    }
    return String(decoding: bytes[0..<(index - 2)], as: UTF8.self)
  }
}
