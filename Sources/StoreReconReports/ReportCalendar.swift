import Foundation
package import StoreReconCore

/// Turns report dates into instants and instants into report days, in the config's time zone.
package struct ReportCalendar: Sendable {
  /// The IANA time zone name.
  package let identifier: String
  private let zone: TimeZone?

  /// A calendar for `identifier` (`UTC` takes a fast path with no time-zone database look-ups).
  package init?(identifier: String) {
    self.identifier = identifier
    if identifier == "UTC" || identifier == "Etc/UTC" {
      zone = nil
    } else {
      guard let tz = TimeZone(identifier: identifier) else { return nil }
      zone = tz
    }
  }

  private func offsetMs(at instant: Instant) -> Int64 {
    guard let zone else { return 0 }
    let date = Date(timeIntervalSince1970: TimeInterval(instant.ms / 1000))
    return Int64(zone.secondsFromGMT(for: date)) * 1000
  }

  /// The report day an instant falls on.
  package func day(of instant: Instant) -> CivilDate {
    CivilDate(
      daysSinceEpoch: (instant.ms + offsetMs(at: instant)).floorDivided(by: Instant.msPerDay).quotient)
  }

  /// The instant local midnight starts `date`.
  package func start(of date: CivilDate) -> Instant { instant(date, hour: 0) }

  /// The instant of a whole local hour of `date` (`hour: 12` is local noon).
  package func instant(_ date: CivilDate, hour: Int64) -> Instant {
    let local = date.daysSinceEpoch * Instant.msPerDay + hour * 3_600_000
    var guess = Instant(ms: local - offsetMs(at: Instant(ms: local)))
    guess = Instant(ms: local - offsetMs(at: guess))
    return guess
  }

  /// The as-of instant of a run for `date`: the end of that day (midnight starting the next one).
  package func asOf(_ date: CivilDate) -> Instant { start(of: date.next) }

  /// Yesterday relative to the machine clock, in this zone: the default `--date`.
  package func yesterday() -> CivilDate {
    let now = Instant(ms: Int64(Date().timeIntervalSince1970 * 1000))
    return day(of: now).previous
  }
}
