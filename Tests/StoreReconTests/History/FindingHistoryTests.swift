import Testing
@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters
@testable import StoreReconAppRows
@testable import StoreReconPostgres
@testable import StoreReconReports
@testable import StoreReconMail
@testable import StoreReconDemo
@testable import StoreReconCLI

/// The pure comparison of a run's findings with the run history.
struct FindingHistoryTests {
  static let d1 = CivilDate(year: 2026, month: 11, day: 28)
  static let d2 = CivilDate(year: 2026, month: 11, day: 29)
  static let d3 = CivilDate(year: 2026, month: 11, day: 30)

  static func finding(_ reason: Finding.Reason, chain: String, user: String = "u1") -> Finding {
    Finding(
      reason: reason, store: .appStore, chainKey: chain, userId: user, productId: "com.acme.pro.monthly",
      currency: Currency.named("USD"), amountMinor: 499, detail: "d")
  }

  @Test func firstRunMakesEverythingNewSinceToday() {
    let current = [Self.finding(.refunded, chain: "1"), Self.finding(.unclaimed, chain: "2", user: "")]
    let outcome = FindingHistory.compare(current: current, date: Self.d2, previous: nil, firstSeen: [:])
    #expect(outcome.delta == HistoryDelta(previousDate: nil, newCount: 2, openCount: 0, resolvedCount: 0))
    #expect(outcome.findings.allSatisfy { $0.since == "2026-11-29" })
    #expect(outcome.changes.allSatisfy { $0.state == .new && $0.since == Self.d2 })
    #expect(outcome.recorded.count == 2)
  }

  @Test func newOpenAndResolvedAgainstThePreviousRun() {
    let stays = Self.finding(.refunded, chain: "1")
    let goes = Self.finding(.overextended, chain: "2")
    let comes = Self.finding(.lockedOut, chain: "3")
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
    let back = Self.finding(.storeExpired, chain: "9")
    let previous = FindingHistory.PreviousRun(date: Self.d2, findings: [])
    let outcome = FindingHistory.compare(
      current: [back], date: Self.d3, previous: previous, firstSeen: [back.key: Self.d1])
    #expect(outcome.changes.first?.state == .new)
    #expect(outcome.changes.first?.since == Self.d1)
  }

  @Test func firstSeenLaterThanTheRunDateIsIgnored() {
    // A re-run of an older date must not take `since` from a later run.
    let f = Self.finding(.refunded, chain: "1")
    let outcome = FindingHistory.compare(
      current: [f], date: Self.d1, previous: nil, firstSeen: [f.key: Self.d3])
    #expect(outcome.findings[0].since == "2026-11-28")
  }

  @Test func oneChangeRowPerFindingKey() {
    // Two entitlements of one user on one chain: two findings, one key.
    var a = Self.finding(.overextended, chain: "1")
    a.detail = "entitlement e1"
    var b = Self.finding(.overextended, chain: "1")
    b.detail = "entitlement e2"
    #expect(a.key == b.key)
    let outcome = FindingHistory.compare(current: [a, b], date: Self.d2, previous: nil, firstSeen: [:])
    #expect(outcome.findings.count == 2)
    #expect(outcome.changes.count == 1)
    #expect(outcome.recorded.count == 1)
    #expect(outcome.delta.newCount == 1)
  }

  @Test func changesCSVHasTheDocumentedColumns() {
    let f = Self.finding(.refunded, chain: "1")
    let outcome = FindingHistory.compare(current: [f], date: Self.d2, previous: nil, firstSeen: [:])
    let text = String(decoding: ReportTables.changesCSV(outcome.changes), as: UTF8.self)
    let lines = text.split(separator: "\n")
    #expect(
      lines[0]
        == "state,finding_key,kind,reason,store,chain_key,user_id,product_id,currency,amount_minor,since")
    #expect(
      lines[1]
        == "new,\(f.key),free_entitlement,refunded,app_store,1,u1,com.acme.pro.monthly,USD,499,2026-11-29")
  }
}
