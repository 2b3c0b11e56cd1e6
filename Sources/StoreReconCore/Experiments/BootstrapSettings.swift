/// How the bootstrap intervals are drawn: the number of resamples and the seed that makes them
/// reproducible (same data, same settings ⇒ same interval, bit for bit).
package struct BootstrapSettings: Sendable, Equatable {
  /// Resamples per arm (default 2000).
  package var iterations: Int
  /// Seed of the resampling generator (default 1).
  package var seed: UInt64

  /// Creates settings.
  package init(iterations: Int = 2000, seed: UInt64 = 1) {
    self.iterations = iterations
    self.seed = seed
  }
}
