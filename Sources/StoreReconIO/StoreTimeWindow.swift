package import StoreReconCore

/// The span a store's timestamp must fall in to be read: not before 2008-01-01 (no store sold an
/// in-app purchase earlier: the App Store opened in July 2008, Android Market in October) and not more
/// than ten years after the run's as-of instant T. A negative or far-future time is damage, not data.
///
/// The run sets ``latestMs`` from T once, before any input is read (``set(asOf:)``); until then the
/// latest is 2100-01-01 (readers used on their own, as the benchmark command does).
package enum StoreTimeWindow {
  /// 2008-01-01T00:00:00Z in milliseconds.
  package static let earliestMs: Int64 = 1_199_145_600_000
  /// Ten years of 365.25 days, in milliseconds.
  static let tenYearsMs: Int64 = 3_652 * 86_400_000 + 43_200_000

  /// The latest instant read (exclusive): T + 10 years once set. Written once by the run before the
  /// readers' threads start (they only read it).
  nonisolated(unsafe) package static var latestMs: Int64 = 4_102_444_800_000

  /// Sets the latest instant from the run's as-of instant.
  package static func set(asOf t: Instant) {
    latestMs = t.ms > Int64.max - tenYearsMs ? Int64.max : t.ms + tenYearsMs
  }

  /// Whether `ms` falls in the window.
  @inline(__always)
  package static func contains(_ ms: Int64) -> Bool { ms >= earliestMs && ms < latestMs }

  /// The rejection reason for field `name` at `ms`, or `nil` when it falls in the window.
  package static func problem(_ name: String, _ ms: Int64) -> String? {
    let shown =
      ms > Instant.distantPast.ms && ms < Instant.distantFuture.ms ? "\(Instant(ms: ms))" : "\(ms) ms"
    if ms < earliestMs {
      return "\(name) \(shown) is before 2008-01-01 (no store sold in-app purchases then)"
    }
    if ms >= latestMs {
      return "\(name) \(shown) is more than 10 years after the report date"
    }
    return nil
  }
}
