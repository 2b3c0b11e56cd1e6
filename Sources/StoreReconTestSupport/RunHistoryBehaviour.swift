package import StoreReconCore
import Testing

/// The behaviour every run history store must have (docs/history.md), checked the same way on SQLite
/// (StoreReconSQLiteTests) and on PostgreSQL (StoreReconIntegrationTests): each check takes a fresh,
/// empty store.
package enum RunHistoryBehaviour {
  package static let d1 = CivilDate(year: 2026, month: 11, day: 27)
  package static let d2 = CivilDate(year: 2026, month: 11, day: 28)
  package static let d3 = CivilDate(year: 2026, month: 11, day: 29)
  package static let d4 = CivilDate(year: 2026, month: 11, day: 30)

  /// A recorded finding with key `key`, at stake `amount` EUR cents (none with `nil`).
  package static func finding(_ key: String, kind: String = "free_entitlement", amount: Int64? = 499)
    -> RecordedFinding
  {
    RecordedFinding(
      key: key, kind: kind, reason: "refunded", store: "app_store", chainKey: "chain-" + key,
      userId: "u-" + key, productId: "com.acme.pro.monthly", currency: amount == nil ? nil : "EUR",
      amountMinor: amount)
  }

  /// What a run on `date` with `findings` records, as the run does it: compared with the history first.
  package static func record(
    _ store: any RunHistory, _ date: CivilDate, _ findings: [RecordedFinding], backfill: Bool = false
  ) throws -> HistoryDelta {
    let past = try store.history(before: date, keys: findings.map(\.key))
    let previousKeys = Set(past.previous?.findings.map(\.key) ?? [])
    let keys = Set(findings.map(\.key))
    let delta = HistoryDelta(
      previousDate: past.previous?.date, newCount: keys.subtracting(previousKeys).count,
      openCount: keys.intersection(previousKeys).count, resolvedCount: previousKeys.subtracting(keys).count)
    try store.record(
      RunRecord(
        date: date, asOf: date.startUTC, optionsJSON: "{}", inputsJSON: "[]", findings: findings,
        findingCount: findings.count, delta: delta, status: "complete", startedAt: "2026-12-01T06:00:00Z",
        backfill: backfill))
    return delta
  }

  /// The first run: no previous run, nothing seen before; then it is the latest run, its findings are
  /// recorded and counted in the trend.
  package static func firstRun(_ store: any RunHistory) throws {
    #expect(try store.latestRun() == nil)
    let before = try store.history(before: d2, keys: ["a1", "b2"])
    #expect(before.previous == nil)
    #expect(before.firstSeen.isEmpty)
    let delta = try record(store, d2, [finding("a1"), finding("b2", kind: "unclaimed", amount: nil)])
    #expect(delta == HistoryDelta(previousDate: nil, newCount: 2, openCount: 0, resolvedCount: 0))
    #expect(try store.latestRun() == d2)
    let totals = try store.dayTotals(through: d2, days: 7)
    #expect(
      totals == [
        HistoryDayTotal(date: d2, kind: "free_entitlement", currency: "EUR", findings: 1, amountMinor: 499),
        HistoryDayTotal(date: d2, kind: "unclaimed", currency: nil, findings: 1, amountMinor: 0),
      ])
    let recorded = try store.recorded(keys: ["a1", "zz"])
    #expect(recorded == ["a1": finding("a1")])
  }

  /// The second day: the previous run and its findings come back; `since` of a key seen the day before
  /// is that day; the comparison gives one new, one open and one resolved finding.
  package static func secondDay(_ store: any RunHistory) throws {
    _ = try record(store, d2, [finding("a1"), finding("b2")])
    let past = try store.history(before: d3, keys: ["b2", "c3"])
    let previous = try #require(past.previous)
    #expect(previous.date == d2)
    #expect(previous.findings == [finding("a1"), finding("b2")])
    #expect(past.firstSeen == ["a1": d2, "b2": d2])
    let current = [Finding.historyTestFinding("b2"), Finding.historyTestFinding("c3")]
    let outcome = FindingHistory.compare(
      current: current, date: d3, previous: past.previous, firstSeen: past.firstSeen)
    #expect(outcome.delta == HistoryDelta(previousDate: d2, newCount: 1, openCount: 1, resolvedCount: 1))
    #expect(outcome.findings.map(\.since) == ["2026-11-28", "2026-11-29"])
    _ = try record(store, d3, outcome.recorded)
    #expect(try store.latestRun() == d3)
    // A key first seen two runs back keeps its first date.
    let third = try store.history(before: d4, keys: ["b2"])
    #expect(third.firstSeen["b2"] == d2)
    #expect(third.previous?.date == d3)
    let days = try store.dayTotals(through: d4, days: 7).map(\.date)
    #expect(days == [d2, d3])
  }

  /// Re-running a date replaces what that date recorded, findings included.
  package static func rerunReplaces(_ store: any RunHistory) throws {
    _ = try record(store, d2, [finding("a1"), finding("b2")])
    _ = try record(store, d2, [finding("c3", amount: 100)])
    let past = try store.history(before: d3, keys: [])
    #expect(past.previous?.findings == [finding("c3", amount: 100)])
    #expect(past.firstSeen == ["c3": d2])
    #expect(
      try store.dayTotals(through: d2, days: 1) == [
        HistoryDayTotal(date: d2, kind: "free_entitlement", currency: "EUR", findings: 1, amountMinor: 100)
      ])
    #expect(try store.recorded(keys: ["a1", "c3"]).keys.sorted() == ["c3"])
  }

  /// A backfill is recorded, but is neither in the trend nor the previous run of a later date.
  package static func backfillIsLeftOut(_ store: any RunHistory) throws {
    _ = try record(store, d1, [finding("a1")])
    _ = try record(store, d3, [finding("b2")])
    _ = try record(store, d2, [finding("c3"), finding("d4")], backfill: true)
    #expect(try store.latestRun() == d3)
    #expect(try store.history(before: d3, keys: []).previous?.date == d1)
    #expect(try store.history(before: d4, keys: []).previous?.date == d3)
    #expect(try store.dayTotals(through: d4, days: 7).map(\.date) == [d1, d3])
    // Still a recorded run: its findings are found.
    #expect(try store.recorded(keys: ["c3"])["c3"] == finding("c3"))
  }

  /// `recorded(keys:)` gives each key's row from the latest run that saw it.
  package static func recordedIsTheLatestRow(_ store: any RunHistory) throws {
    _ = try record(store, d1, [finding("a1", amount: 100), finding("b2", amount: 7)])
    _ = try record(store, d2, [finding("a1", amount: 200)])
    _ = try record(store, d3, [finding("c3")])
    let recorded = try store.recorded(keys: ["a1", "b2", "c3", "none"])
    #expect(recorded["a1"]?.amountMinor == 200)
    #expect(recorded["b2"]?.amountMinor == 7)
    #expect(recorded["c3"] == finding("c3"))
    #expect(recorded["none"] == nil)
    #expect(try store.recorded(keys: []).isEmpty)
  }
}

extension Finding {
  /// A finding of this run with key `key` (the shape ``RunHistoryBehaviour/finding(_:kind:amount:)``
  /// records).
  package static func historyTestFinding(_ key: String) -> Finding {
    var f = Finding(
      reason: .refunded, store: .appStore, chainKey: "chain-" + key, userId: "u-" + key,
      productId: "com.acme.pro.monthly", currency: Currency.named("EUR"), amountMinor: 499, detail: "")
    f.key = key
    return f
  }
}
