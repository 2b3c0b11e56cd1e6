/// Stripe object ids as Stripe writes them: a type prefix and 24 characters (`sub_1`, `in_1`, `ch_3`,
/// `pi_3`, `txn_3`, `po_1` …: a leading digit, five characters, the account's ten and eight more), or
/// 14 characters for customers, subscription items and requests (`cus_NffrFeUfNV2Hib`).
enum DemoStripeIds {
  /// The ten characters every id of Acme's Stripe account shares.
  static let account = "K3fWq2Lz8x"
  private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

  /// `prefix` (with its leading digit), five random characters, the account's ten and eight random.
  static func id(_ prefix: String, _ rng: inout DemoRandom) -> String {
    prefix + random(5, &rng) + account + random(8, &rng)
  }

  /// `count` random characters of Stripe's alphabet.
  static func random(_ count: Int, _ rng: inout DemoRandom) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    for _ in 0..<count { bytes.append(alphabet[rng.below(alphabet.count)]) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
