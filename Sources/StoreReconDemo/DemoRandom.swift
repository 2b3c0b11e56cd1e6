/// The demo's own pseudo-random generator: xoshiro256** seeded through SplitMix64.
///
/// Never the system generator, so the same seed gives the same world on every machine. Probabilities
/// are integers (per mille); no floating point is involved anywhere.
struct DemoRandom {
  private var s0: UInt64
  private var s1: UInt64
  private var s2: UInt64
  private var s3: UInt64

  /// Creates a generator whose whole state derives from `seed`.
  init(seed: UInt64) {
    var x = seed
    s0 = DemoRandom.splitMix(&x)
    s1 = DemoRandom.splitMix(&x)
    s2 = DemoRandom.splitMix(&x)
    s3 = DemoRandom.splitMix(&x)
  }

  /// A generator for one stream (`stream` is a user index, or a constant naming a purpose).
  init(seed: UInt64, stream: UInt64) {
    var x = seed ^ (stream &* 0xD1B5_4A32_D192_ED03)
    self.init(seed: DemoRandom.splitMix(&x))
  }

  /// One step of SplitMix64.
  static func splitMix(_ x: inout UInt64) -> UInt64 {
    x = x &+ 0x9E37_79B9_7F4A_7C15
    var z = x
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The next 64 random bits.
  mutating func next() -> UInt64 {
    let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = s3 << 45 | s3 >> 19
    return result
  }

  /// A value in `0..<bound` (`bound` > 0).
  mutating func below(_ bound: Int) -> Int {
    Int(next().multipliedFullWidth(by: UInt64(bound)).high)
  }

  /// A value in `lower..<upper` (`upper` > `lower`).
  mutating func int64(_ lower: Int64, _ upper: Int64) -> Int64 {
    lower + Int64(next().multipliedFullWidth(by: UInt64(upper - lower)).high)
  }

  /// True with probability `perMille` / 1000.
  mutating func chance(_ perMille: Int) -> Bool { below(1000) < perMille }

  /// One element of a non-empty array.
  mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }

  /// An index chosen with the given integer weights (at least one positive).
  mutating func weighted(_ weights: [Int]) -> Int {
    var roll = below(weights.reduce(0, +))
    for (index, weight) in weights.enumerated() {
      if roll < weight { return index }
      roll -= weight
    }
    return weights.count - 1
  }

  /// Shuffles an array in place (Fisher–Yates).
  mutating func shuffle<T>(_ values: inout [T]) {
    guard values.count > 1 else { return }
    for i in stride(from: values.count - 1, to: 0, by: -1) {
      values.swapAt(i, below(i + 1))
    }
  }
}
