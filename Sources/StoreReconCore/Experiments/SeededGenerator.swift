/// SplitMix64 (Steele, Lea, Flood 2014): a small, fast generator whose whole sequence follows from its
/// seed, so a bootstrap interval is the same on every machine and every run.
package struct SeededGenerator: Sendable {
  private var state: UInt64

  /// A generator starting from `seed`.
  package init(seed: UInt64) { state = seed }

  /// A generator for one named stream of `seed` (an experiment and arm): the name is hashed with
  /// FNV-1a (stable across runs, unlike `Hasher`) and mixed into the seed.
  package init(seed: UInt64, stream: String) {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in stream.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    var mixer = SeededGenerator(seed: seed ^ hash)
    state = mixer.next()
  }

  /// The SplitMix64 increment: the state after `k` draws is the seed state plus `k` times it.
  static let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15

  /// The next 64 random bits.
  @inline(__always)
  package mutating func next() -> UInt64 {
    state = state &+ SeededGenerator.gamma
    return SeededGenerator.mix(state)
  }

  /// SplitMix64's output function of a state.
  @inline(__always)
  static func mix(_ state: UInt64) -> UInt64 {
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The current state (the next draw mixes this plus ``gamma``).
  var currentState: UInt64 { state }

  /// Moves `draws` draws ahead without making them (the generator is counter-based).
  mutating func skip(_ draws: UInt64) { state = state &+ draws &* SeededGenerator.gamma }

  /// A uniform value in the open interval (0, 1): the top 53 bits of the next draw, plus half a step.
  @inline(__always)
  mutating func unit() -> Double { (Double(next() >> 11) + 0.5) * 0x1p-53 }

  /// A value in `0..<bound` (`bound` > 0), by the high half of a 128-bit product.
  package mutating func below(_ bound: Int) -> Int {
    Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
  }
}
