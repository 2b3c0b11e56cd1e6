/// A small seeded generator (SplitMix64) for the line variants: the same seed gives the same lines.
package struct VariantRandom {
  private var state: UInt64

  /// A generator starting from `seed`.
  package init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

  /// The next 64 random bits.
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<n` (`n` > 0).
  package mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }

  /// `true` with probability `percent` / 100.
  package mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

  /// One element of a non-empty array.
  package mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

  /// The elements in a random order.
  package mutating func shuffled<T>(_ elements: [T]) -> [T] {
    var out = elements
    var i = out.count - 1
    while i > 0 {
      out.swapAt(i, below(i + 1))
      i -= 1
    }
    return out
  }

  /// `count` characters drawn from `alphabet`.
  package mutating func text(_ count: Int, from alphabet: String) -> String {
    let characters = Array(alphabet)
    return String((0..<count).map { _ in characters[below(characters.count)] })
  }

  /// A random UUID in the usual 8-4-4-4-12 form, lower case unless `upper`.
  package mutating func uuid(upper: Bool = false) -> String {
    let hex = upper ? "0123456789ABCDEF" : "0123456789abcdef"
    return [8, 4, 4, 4, 12].map { text($0, from: hex) }.joined(separator: "-")
  }

  /// A 64-character opaque id (letters, digits, `-`, `_`, `.`), as tokens some systems use.
  package mutating func opaque(_ count: Int = 64) -> String {
    text(count, from: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")
  }
}
