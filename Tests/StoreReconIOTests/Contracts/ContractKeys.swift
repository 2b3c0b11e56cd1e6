@testable import StoreReconCore

/// Ids as the stores and the app write them — UUIDs, Apple's 16-digit transaction ids, Play order ids
/// with renewals, Play purchase tokens (150 opaque characters), Stripe ids, long numbers, non-ASCII
/// user ids — drawn from a seeded generator, so a failing test replays with the seed it prints.
struct ContractKeys {
  /// The seed the keys follow from (print it in failure messages).
  let seed: UInt64
  private var generator: SeededGenerator

  init(seed: UInt64) {
    self.seed = seed
    generator = SeededGenerator(seed: seed, stream: "contract keys")
  }

  private static let hex = Array("0123456789abcdef".utf8)
  private static let token = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_".utf8)
  private static let lower = Array("abcdefghijklmnopqrstuvwxyz".utf8)

  private mutating func text(_ count: Int, from alphabet: [UInt8]) -> String {
    String(decoding: (0..<count).map { _ in alphabet[generator.below(alphabet.count)] }, as: UTF8.self)
  }

  private mutating func digits(_ count: Int) -> String { text(count, from: Array("0123456789".utf8)) }

  /// `c9ca70cb-1314-4494-a3f3-b1d18c20d85e` (an account token), upper case when `upper`.
  mutating func uuid(upper: Bool = false) -> String {
    let parts = [8, 4, 4, 4, 12].map { text($0, from: ContractKeys.hex) }
    let id = parts.joined(separator: "-")
    return upper ? id.uppercased() : id
  }

  /// An Apple transaction id: `2000000` and nine more digits.
  mutating func appleId() -> String { "2000000" + digits(9) }

  /// A Play order id, `GPA.3372-9541-8870-12345`, with `..N` for a renewal.
  mutating func playOrder(renewal: Int? = nil) -> String {
    let base = "GPA.\(digits(4))-\(digits(4))-\(digits(4))-\(digits(5))"
    return renewal.map { base + "..\($0)" } ?? base
  }

  /// A Play purchase token: 24 letters, a dot, `AO-J1O` and 120 more opaque characters.
  mutating func playToken() -> String {
    text(24, from: ContractKeys.lower) + ".AO-J1O" + text(120, from: ContractKeys.token)
  }

  /// A Stripe subscription id, `sub_` and 24 characters.
  mutating func stripeId() -> String {
    "sub_" + text(24, from: Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8))
  }

  /// A number too long for a packed decimal (20 to 30 digits), as some apps write order numbers.
  mutating func longNumber() -> String { digits(20 + generator.below(11)) }

  /// A user id, now and then with letters beyond ASCII (compared by `String` equality).
  mutating func userId() -> String {
    generator.below(10) == 0 ? "Ünal-\(digits(6))" : "u\(digits(7))"
  }

  /// `n` keys of every kind above, in a random order of kinds (repeats possible among the short ones).
  mutating func mixed(_ n: Int) -> [String] {
    (0..<n).map { _ in
      switch generator.below(8) {
      case 0: return uuid()
      case 1: return uuid(upper: true)
      case 2: return appleId()
      case 3: return playOrder(renewal: generator.below(3) == 0 ? generator.below(40) : nil)
      case 4: return playToken()
      case 5: return stripeId()
      case 6: return longNumber()
      default: return userId()
      }
    }
  }
}
