import Testing

@testable import StoreReconCore

@Suite struct InstantTests {
  @Test func parsesOffsetsAndFractions() {
    #expect(Instant.parseISO8601("1970-01-01T00:00:00Z")?.ms == 0)
    #expect(Instant.parseISO8601("2026-11-29T10:00:00Z") == Instant.parseISO8601("2026-11-29T12:00:00+02:00"))
    #expect(Instant.parseISO8601("2026-11-29 10:00:00+00") == Instant.parseISO8601("2026-11-29T10:00:00Z"))
    #expect(
      Instant.parseISO8601("2026-11-29T10:00:00.123456789Z")?.ms == Instant.parseISO8601(
        "2026-11-29T10:00:00Z")!.ms + 123)
    #expect(
      Instant.parseISO8601("2026-11-29T10:00:00.5-0130")?.ms == Instant.parseISO8601("2026-11-29T11:30:00Z")!
        .ms + 500)
    #expect(Instant.parseISO8601("2024-02-29T00:00:00Z") != nil)
  }

  @Test func rejectsAmbiguousOrInvalid() {
    #expect(Instant.parseISO8601("2026-11-29T10:00:00") == nil)
    #expect(Instant.parseISO8601("2026-02-30T10:00:00Z") == nil)
    #expect(Instant.parseISO8601("2025-02-29T10:00:00Z") == nil)
    #expect(Instant.parseISO8601("2026-11-29T24:00:00Z") == nil)
    #expect(Instant.parseISO8601("2026-11-29") == nil)
    #expect(Instant.parseISO8601("2026-11-29T10:00:00Zjunk") == nil)
  }

  @Test func civilDatesRoundTrip() {
    for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
      let date = CivilDate(daysSinceEpoch: days)
      #expect(date.daysSinceEpoch == days)
    }
    #expect(CivilDate.parse("2026-11-29")?.next.description == "2026-11-30")
    #expect(CivilDate.parse("2026-13-01") == nil)
    #expect(Instant(ms: 0).description == "1970-01-01T00:00:00.000Z")
  }

  @Test func billingPeriods() {
    #expect(BillingPeriod.parse("P1M") == BillingPeriod(months: 1))
    #expect(BillingPeriod.parse("P1Y") == BillingPeriod(months: 12))
    #expect(BillingPeriod.parse("P1W") == BillingPeriod(days: 7))
    #expect(BillingPeriod.parse("1M") == nil)
    #expect(BillingPeriod.parse("P") == nil)
    let jan31 = Instant.parseISO8601("2024-01-31T08:00:00Z")!
    #expect(BillingPeriod.oneMonth.advance(jan31) == Instant.parseISO8601("2024-02-29T08:00:00Z"))
  }
}
