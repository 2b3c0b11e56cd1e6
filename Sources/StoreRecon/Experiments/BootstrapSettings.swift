/// How the bootstrap intervals are drawn: the number of resamples and the seed that makes them
/// reproducible (same data, same settings ⇒ same interval, bit for bit).
public struct BootstrapSettings: Sendable, Equatable {
  /// Resamples per arm (default 2000).
  public var iterations: Int
  /// Seed of the resampling generator (default 1).
  public var seed: UInt64

  /// Creates settings.
  public init(iterations: Int = 2000, seed: UInt64 = 1) {
    self.iterations = iterations
    self.seed = seed
  }
}
