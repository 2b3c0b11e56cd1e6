/// Issues the world's store identifiers: unique by construction (a counter is part of every id),
/// random-looking by the seeded generator.
struct DemoIdentifiers {
  private var transactions: Int64 = 0
  private var webOrders: Int64 = 0
  private var fakeTransactions: Int64 = 0
  private var orders: Int64 = 0
  private var tokens: UInt64 = 0
  private var fakeTokens: UInt64 = 0
  private var entitlements: Int64 = 0
  private var grants: Int64 = 0
  private var credits: Int64 = 0

  static let base64URL = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// A new Apple `transactionId` (16 digits).
  mutating func appleTransactionId(_ rng: inout DemoRandom) -> String {
    transactions += 1
    return String(2_000_000_000_000_000 + transactions * 13 + Int64(rng.below(13)))
  }

  /// A new Apple `webOrderLineItemId` (15 digits).
  mutating func webOrderLineItemId(_ rng: inout DemoRandom) -> String {
    webOrders += 1
    return String(200_000_000_000_000 + webOrders * 7 + Int64(rng.below(7)))
  }

  /// An Apple-looking original transaction id that no store record has.
  mutating func unknownAppleTransactionId(_ rng: inout DemoRandom) -> String {
    fakeTransactions += 1
    return String(1_000_000_000_000_000 + fakeTransactions * 17 + Int64(rng.below(17)))
  }

  /// A new Play first order id, `GPA.dddd-dddd-dddd-ddddd`.
  mutating func playOrder(_ rng: inout DemoRandom) throws -> String {
    guard orders < 10_000_000 else { throw DemoError.identifiersExhausted("Play orders") }
    // 10 random digits, then the counter permuted over 7 digits (a bijection: 7919 is prime to 10).
    let tail = (orders * 7919 + 1_234_567) % 10_000_000
    orders += 1
    var digits = [UInt8]()
    digits.reserveCapacity(17)
    for _ in 0..<10 { digits.append(0x30 + UInt8(rng.below(10))) }
    var rest = tail
    var tailDigits = [UInt8](repeating: 0x30, count: 7)
    for i in stride(from: 6, through: 0, by: -1) {
      tailDigits[i] = 0x30 + UInt8(rest % 10)
      rest /= 10
    }
    digits.append(contentsOf: tailDigits)
    var text = Array("GPA.".utf8)
    for (i, d) in digits.enumerated() {
      if i == 4 || i == 8 || i == 12 { text.append(0x2D) }
      text.append(d)
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// A new Play purchase token.
  mutating func playToken(_ rng: inout DemoRandom) -> String {
    tokens += 1
    return DemoIdentifiers.token(counter: tokens, &rng)
  }

  /// A Play-looking purchase token that no store record has.
  mutating func unknownPlayToken(_ rng: inout DemoRandom) -> String {
    fakeTokens += 1
    return DemoIdentifiers.token(counter: 1 << 47 | fakeTokens, &rng)
  }

  private static func token(counter: UInt64, _ rng: inout DemoRandom) -> String {
    var text = [UInt8]()
    text.reserveCapacity(80)
    for _ in 0..<24 { text.append(0x61 + UInt8(rng.below(26))) }
    text.append(contentsOf: Array(".AO-J1O".utf8))
    // The counter, permuted over 48 bits: odd multipliers and xor-shifts are bijections mod 2^48.
    let mask: UInt64 = 0xFFFF_FFFF_FFFF
    var unique = (counter &* 0x5_DEEC_E66D) & mask
    unique ^= unique >> 23
    unique = (unique &* 0x2545_F491_4F6C_DD1D) & mask
    unique ^= unique >> 29
    for i in stride(from: 42, through: 0, by: -6) { text.append(base64URL[Int(unique >> UInt64(i) & 63)]) }
    for _ in 0..<40 { text.append(base64URL[rng.below(64)]) }
    return String(decoding: text, as: UTF8.self)
  }

  /// A new entitlement id.
  mutating func entitlementId() -> String {
    entitlements += 1
    return "ent_" + DemoIdentifiers.padded(entitlements, 8)
  }

  /// A new goodwill grant id.
  mutating func creditId() -> String {
    credits += 1
    return "cr_" + DemoIdentifiers.padded(credits, 7)
  }

  /// A new goodwill grant id.
  mutating func grantId() -> String {
    grants += 1
    return "gw_" + DemoIdentifiers.padded(grants, 6)
  }

  /// The app's user id for a 0-based index: `u0000001` ….
  static func userId(_ index: Int) -> String { "u" + padded(Int64(index + 1), 7) }

  /// The app's user id in the realistic world: a UUID for most users, a long opaque id (40 to 64
  /// base64url characters, as an auth provider issues) for about one in ten. Unique: the index is
  /// part of both (the UUID's random bits come from a stream of its own per user).
  static func realisticUserId(seed: UInt64, index: Int) -> String {
    var rng = DemoRandom(seed: seed, stream: 0x05E2_1D00_0000_0000 | UInt64(index))
    guard rng.chance(100) else { return uuid(seed: seed, stream: 0x05E2_0000_0000_0000 | UInt64(index)) }
    var text = Array("auth0|".utf8)
    let length = 40 + rng.below(25)
    var rest = UInt64(index)
    for _ in 0..<8 {
      text.append(base64URL[Int(rest & 63)])
      rest >>= 6
    }
    while text.count < length { text.append(base64URL[rng.below(64)]) }
    return String(decoding: text, as: UTF8.self)
  }

  /// The UUID the app set as Apple `appAccountToken` for a user (version 4 form, derived from the seed).
  static func accountUUID(seed: UInt64, userIndex: Int) -> String {
    uuid(seed: seed, stream: 0xACC0_0000_0000 | UInt64(userIndex))
  }

  /// A version 4 UUID from the generator stream `stream`.
  static func uuid(seed: UInt64, stream: UInt64) -> String {
    var rng = DemoRandom(seed: seed, stream: stream)
    let high = rng.next() & 0xFFFF_FFFF_FFFF_0FFF | 0x4000
    let low = rng.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
    let hex = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    for (i, shift) in stride(from: 60, through: 0, by: -4).enumerated() {
      if i == 8 || i == 12 { text.append(0x2D) }
      text.append(hex[Int(high >> UInt64(shift) & 15)])
    }
    for (i, shift) in stride(from: 60, through: 0, by: -4).enumerated() {
      if i == 0 || i == 4 { text.append(0x2D) }
      text.append(hex[Int(low >> UInt64(shift) & 15)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  static func padded(_ value: Int64, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }
}
