import Testing

@testable import StoreReconCore
@testable import StoreReconReports

/// Inputs that do not cover the report date are said: noon of D for the App Store, D for Play sales.
struct CompletenessTests {
  static let date = CivilDate(year: 2026, month: 11, day: 29)

  static func input(_ role: String, last: Instant?, error: String? = nil) -> InputReport {
    var r = InputReport(role: role, path: "\(role).file", rejectsFile: "rejects/x.csv")
    r.firstAt = last.map { $0.adding(days: -30) }
    r.lastAt = last
    r.error = error
    return r
  }

  @Test func appStoreNeedsATransactionAtOrAfterLocalNoon() throws {
    let berlin = try #require(ReportCalendar(identifier: "Europe/Berlin"))
    let noon = berlin.instant(Self.date, hour: 12)
    #expect(noon == Instant.parseISO8601("2026-11-29T11:00:00Z"))
    let covered = Completeness.reasons(
      date: Self.date, calendar: berlin, inputs: [Self.input("app_store.transactions", last: noon)],
      missing: [])
    #expect(covered.isEmpty)
    let early = Completeness.reasons(
      date: Self.date, calendar: berlin,
      inputs: [Self.input("app_store.transactions", last: noon.adding(ms: -1))],
      missing: [])
    #expect(
      early == [
        "app_store.transactions: last transaction 2026-11-29T10:59:59.999Z, before noon of 2026-11-29 (Europe/Berlin)"
      ])
    // Two files: the later one covers.
    let two = Completeness.reasons(
      date: Self.date, calendar: berlin,
      inputs: [
        Self.input("app_store.transactions", last: noon.adding(ms: -1)),
        Self.input("app_store.transactions", last: noon),
      ],
      missing: [])
    #expect(two.isEmpty)
  }

  @Test func playSalesNeedARowOnTheDate() throws {
    let utc = try #require(ReportCalendar(identifier: "UTC"))
    let start = utc.start(of: Self.date)
    #expect(
      Completeness.reasons(
        date: Self.date, calendar: utc, inputs: [Self.input("play.sales", last: start)], missing: []
      ).isEmpty)
    #expect(
      Completeness.reasons(
        date: Self.date, calendar: utc, inputs: [Self.input("play.sales", last: start.adding(ms: -1))],
        missing: [])
        == ["play.sales: no sales rows for 2026-11-29 (last row 2026-11-28T23:59:59.999Z)"])
    #expect(
      Completeness.reasons(
        date: Self.date, calendar: utc, inputs: [Self.input("play.sales", last: nil)], missing: [])
        == ["play.sales: no sales rows at all"])
  }

  @Test func missingAndUnreadableFilesAndUncheckedRoles() throws {
    let utc = try #require(ReportCalendar(identifier: "UTC"))
    let reasons = Completeness.reasons(
      date: Self.date, calendar: utc,
      inputs: [
        Self.input("play.voided", last: nil, error: "broken gzip"),
        Self.input("play.subscriptions", last: nil),
        Self.input("app.entitlements", last: nil),
      ],
      missing: [Completeness.Missing(role: "play.sales", pattern: "exports/play/*.csv")])
    #expect(
      reasons == [
        "play.sales: no file matches 'exports/play/*.csv'", "play.voided play.voided.file: could not be read",
      ])
  }
}
