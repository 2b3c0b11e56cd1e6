import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// The pure comparison of a run's findings with the run history (the columns of changes.csv, written by
/// StoreReconReports, are checked in StoreReconReportsTests).
struct FindingHistoryTests {
  static let d1 = CivilDate(year: 2026, month: 11, day: 28)
  static let d2 = CivilDate(year: 2026, month: 11, day: 29)
  static let d3 = CivilDate(year: 2026, month: 11, day: 30)

  @Test func firstRunMakesEverythingNewSinceToday() {
    let current = [Fx.finding(.refunded, chain: "1"), Fx.finding(.unclaimed, chain: "2", user: "")]
    let outcome = FindingHistory.compare(current: current, date: Self.d2, previous: nil, firstSeen: [:])
    #expect(outcome.delta == HistoryDelta(previousDate: nil, newCount: 2, openCount: 0, resolvedCount: 0))
    #expect(outcome.findings.allSatisfy { $0.since == "2026-11-29" })
    #expect(outcome.changes.allSatisfy { $0.state == .new && $0.since == Self.d2 })
    #expect(outcome.recorded.count == 2)
  }

  @Test func newOpenAndResolvedAgainstThePreviousRun() {
    let stays = Fx.finding(.refunded, chain: "1")
    let goes = Fx.finding(.overextended, chain: "2")
    let comes = Fx.finding(.lockedOut, chain: "3")
    let previous = FindingHistory.PreviousRun(
      date: Self.d2, findings: [RecordedFinding(stays), RecordedFinding(goes)])
    let outcome = FindingHistory.compare(
      current: [stays, comes], date: Self.d3, previous: previous,
      firstSeen: [stays.key: Self.d1, goes.key: Self.d2])
    #expect(outcome.delta == HistoryDelta(previousDate: Self.d2, newCount: 1, openCount: 1, resolvedCount: 1))
    let byKey = Dictionary(uniqueKeysWithValues: outcome.changes.map { ($0.finding.key, $0) })
    #expect(byKey[stays.key]?.state == .open)
    #expect(byKey[stays.key]?.since == Self.d1)
    #expect(byKey[comes.key]?.state == .new)
    #expect(byKey[comes.key]?.since == Self.d3)
    #expect(byKey[goes.key]?.state == .resolved)
    #expect(byKey[goes.key]?.since == Self.d2)
    #expect(byKey[goes.key]?.finding.reason == "overextended")
    // since in findings.csv: the first date that saw it.
    #expect(outcome.findings.first { $0.key == stays.key }?.since == "2026-11-28")
    #expect(outcome.findings.first { $0.key == comes.key }?.since == "2026-11-30")
    // Sorted: new, open, resolved.
    #expect(outcome.changes.map(\.state) == [.new, .open, .resolved])
  }

  @Test func aFindingThatComesBackIsNewButKeepsItsFirstDate() {
    let back = Fx.finding(.storeExpired, chain: "9")
    let previous = FindingHistory.PreviousRun(date: Self.d2, findings: [])
    let outcome = FindingHistory.compare(
      current: [back], date: Self.d3, previous: previous, firstSeen: [back.key: Self.d1])
    #expect(outcome.changes.first?.state == .new)
    #expect(outcome.changes.first?.since == Self.d1)
  }

  @Test func firstSeenLaterThanTheRunDateIsIgnored() {
    // A re-run of an older date must not take `since` from a later run.
    let f = Fx.finding(.refunded, chain: "1")
    let outcome = FindingHistory.compare(
      current: [f], date: Self.d1, previous: nil, firstSeen: [f.key: Self.d3])
    #expect(outcome.findings[0].since == "2026-11-28")
  }

  @Test func oneChangeRowPerFindingKey() {
    // Two entitlements of one user on one chain: two findings, one key.
    var a = Fx.finding(.overextended, chain: "1")
    a.detail = "entitlement e1"
    var b = Fx.finding(.overextended, chain: "1")
    b.detail = "entitlement e2"
    #expect(a.key == b.key)
    let outcome = FindingHistory.compare(current: [a, b], date: Self.d2, previous: nil, firstSeen: [:])
    #expect(outcome.findings.count == 2)
    #expect(outcome.changes.count == 1)
    #expect(outcome.recorded.count == 1)
    #expect(outcome.delta.newCount == 1)
  }
}
