import StoreReconCore

/// The trap of report-day boundaries: App Store purchases near Pacific midnight, for the tie-out.
extension DemoBuilder {
  /// Coins bought half an hour either side of Pacific midnight, on days the Apple sales reports
  /// cover: in PDT (UTC−7) at 06:30 and 07:30 UTC, in PST (UTC−8) at 07:30 and 08:30 UTC. The
  /// tie-out must put each on its Pacific day (the day before, the same day, the day before, the
  /// same day); a clean consumable purchase for the rules.
  func reportDayBoundaryGroup(_ user: DemoUser, _ rng: inout DemoRandom) -> DemoGroup {
    var group = DemoGroup()
    for at in reportDayBoundaries(&rng) {
      let coins = oneTimePeriod(.appleCoins, user.country, at: at)
      addClean(appleChain(user, [coins], &rng), userId: user.id, to: &group, &rng)
    }
    return group
  }

  /// Instants half an hour before and after Pacific midnight in UTC on one PDT and one PST day whose
  /// Pacific day and the day before are both report days (the 30 days before the as-of day); none
  /// for a season the report days do not have.
  func reportDayBoundaries(_ rng: inout DemoRandom) -> [Instant] {
    let asOf = DemoCalendar.date(t).daysSinceEpoch - 1
    let days = (1...29).map { CivilDate(daysSinceEpoch: asOf - Int64($0)).startUTC }
    let half: Int64 = DemoCalendar.msPerHour / 2
    var instants: [Instant] = []
    for daylight in [true, false] {
      let midnight = (daylight ? 7 : 8) * DemoCalendar.msPerHour
      let eligible = days.filter {
        DemoPacific.isDaylight($0.adding(ms: midnight - half)) == daylight
          && DemoPacific.isDaylight($0.adding(ms: midnight + half)) == daylight
      }
      guard !eligible.isEmpty else { continue }
      let day = rng.pick(eligible)
      instants += [day.adding(ms: midnight - half), day.adding(ms: midnight + half)]
    }
    return instants
  }
}
