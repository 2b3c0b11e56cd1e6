package import StoreReconCore

/// The span a store's timestamp must fall in to be read: not before 2008-01-01 (no store sold an
/// in-app purchase earlier: the App Store opened in July 2008, Android Market in October) and not more
/// than ten years after the run's as-of instant T. A negative or far-future time is damage, not data.
///
/// A value: the run makes it from T (``init(asOf:)``) and hands it to every reader through their
/// settings; a reader used on its own (the benchmark command, tests) takes ``standalone``, whose latest
/// instant is 2100-01-01.
package struct StoreTimeWindow: Sendable, Equatable {
  /// 2008-01-01T00:00:00Z in milliseconds.
  package static let earliestMs: Int64 = 1_199_145_600_000
  /// Ten years of 365.25 days, in milliseconds.
  static let tenYearsMs: Int64 = 3_652 * 86_400_000 + 43_200_000

  /// The latest instant read (exclusive): T + 10 years.
  package let latestMs: Int64

  /// The window of a reader used on its own, not by a run: up to 2100-01-01.
  package static let standalone = StoreTimeWindow(latestMs: 4_102_444_800_000)

  init(latestMs: Int64) { self.latestMs = latestMs }

  /// The window of a run as of `t`: up to T + 10 years.
  package init(asOf t: Instant) {
    latestMs = t.ms > Int64.max - Self.tenYearsMs ? Int64.max : t.ms + Self.tenYearsMs
  }

  /// Whether `ms` falls in the window.
  @inline(__always)
  package func contains(_ ms: Int64) -> Bool { ms >= Self.earliestMs && ms < latestMs }

  /// The rejection reason for field `name` at `ms`, or `nil` when it falls in the window.
  package func problem(_ name: String, _ ms: Int64) -> String? {
    let shown =
      ms > Instant.distantPast.ms && ms < Instant.distantFuture.ms ? "\(Instant(ms: ms))" : "\(ms) ms"
    if ms < Self.earliestMs {
      return "\(name) \(shown) is before 2008-01-01 (no store sold in-app purchases then)"
    }
    if ms >= latestMs {
      return "\(name) \(shown) is more than 10 years after the report date"
    }
    return nil
  }
}
