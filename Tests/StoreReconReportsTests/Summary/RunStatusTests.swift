import Testing

@testable import StoreReconCore
@testable import StoreReconReports

/// The status decision table (docs/reports.md#the-status): each row, alone and where rows meet; the
/// cases behind ATTENTION (docs/cases.md).
struct RunStatusTests {
  static let usd = Currency.named("USD")!
  static let eur = Currency.named("EUR")!
  static let day = CivilDate(year: 2026, month: 11, day: 29)

  static func finding(
    _ user: String, _ amount: Int64?, chain: String? = nil, reason: Finding.Reason = .unclaimed
  )
    -> Finding
  {
    Finding(
      reason: reason, store: .appStore, chainKey: chain ?? "chain-\(user)", userId: user,
      productId: "com.acme.pro.monthly", currency: amount == nil ? nil : usd, amountMinor: amount,
      detail: "")
  }

  static func input(read: Int, rejected: Int) -> InputReport {
    InputReport(
      role: "play.sales", path: "exports/play/s.csv",
      counts: InputCounts(read: read, accepted: read - rejected, rejected: rejected),
      rejectsFile: "rejects/s.csv")
  }

  static let breach = AlertBreach(rule: "free_entitlement", text: "free_entitlement: 3 findings > maxCount 2")

  /// The cases of `findings` for `day`, against a previous run that had `previous` and decisions.
  static func book(
    _ findings: [Finding], previous: [Finding] = [], firstSeen: [String: CivilDate] = [:],
    decisions: [CaseDecision] = []
  ) -> CaseBook {
    let before = CivilDate(year: 2026, month: 11, day: 28)
    return CaseBook.build(
      candidates: findings.map { CaseCandidate($0) }, date: day,
      previous: (before, previous.map { RecordedFinding($0) }), firstSeen: firstSeen, decisions: decisions,
      historyKept: true)
  }

  static func accept(_ key: String, until: CivilDate? = nil, cap: Int64? = nil) -> CaseDecision {
    CaseDecision(
      key: key, verdict: .accept, reason: "known", by: "ana", until: until, maxAmountMinor: cap, line: 2)
  }

  @Test func nothingApplies() {
    let status = RunStatus.decide(RunStatus.Inputs(inputs: [Self.input(read: 1000, rejected: 0)]))
    #expect(status.words.isEmpty && status.label == "OK" && status.worst == nil)
    #expect(status.reason == "nothing new, nothing open" && status.details.isEmpty)
    #expect(status.line == "OK — nothing new, nothing open")
    #expect(status.casesPhrase == "0 new, 0 open")
  }

  @Test func withoutHistoryEveryFindingIsNew() {
    let status = RunStatus.decide(
      RunStatus.Inputs(findings: [Self.finding("a", 499), Self.finding("b", 1_000_000)]))
    #expect(status.label == "ATTENTION" && status.worst == .attention)
    #expect(status.reason == "2 new")
    #expect(status.details == ["new (no run history: all new): 2 findings"])
    #expect(status.casesPhrase == "2 new (10,004.99 USD), 0 open")
  }

  @Test func anOpenCaseStillNeedsALookUntilSettled() {
    let old = Self.finding("a", 499)
    let new = Self.finding("b", 250)
    let seenBefore = RunStatus.decide(RunStatus.Inputs(findings: [old], newFindingKeys: []))
    #expect(seenBefore.label == "ATTENTION" && seenBefore.reason == "1 open", "\(seenBefore.reason)")
    #expect(seenBefore.casesPhrase == "0 new, 1 open (4.99 USD)")
    let fresh = RunStatus.decide(RunStatus.Inputs(findings: [old, new], newFindingKeys: [new.key]))
    #expect(fresh.label == "ATTENTION" && fresh.reason == "1 new, 1 open")
    let settled = RunStatus.decide(
      RunStatus.Inputs(cases: Self.book([old], previous: [old], decisions: [Self.accept(old.key)])))
    #expect(settled.label == "OK" && settled.casesPhrase == "0 new, 0 open, 1 settled", "\(settled.line)")
  }

  @Test func aFindingWithoutMoneyIsStillACase() {
    let status = RunStatus.decide(RunStatus.Inputs(findings: [Self.finding("a", nil), Self.finding("b", 0)]))
    #expect(status.label == "ATTENTION" && status.casesPhrase == "2 new, 0 open")
  }

  @Test func anyTieOutDifferenceIsACase() {
    let matching = TieOut(
      cells: TieOutFixture.cells.filter { $0.status == .match },
      orders: TieOutFixture.orders.filter { $0.status == .match })
    #expect(RunStatus.decide(RunStatus.Inputs(tieOut: matching)).label == "OK")
    let one = TieOut(cells: TieOutFixture.cells.filter { $0.status == .reportMore }, orders: [])
    let cell = RunStatus.decide(RunStatus.Inputs(tieOut: one))
    #expect(cell.label == "ATTENTION" && cell.reason == "1 new")
    #expect(cell.details == ["new (no run history: all new): 1 tie-out cell"])
    // A tie-out difference is not money taken: it adds nothing to the money at stake.
    #expect(cell.casesPhrase == "1 new, 0 open")
    let orders = RunStatus.decide(
      RunStatus.Inputs(
        tieOut: TieOut(cells: [], orders: TieOutFixture.orders.filter { $0.status == .feeDiffers })))
    #expect(
      orders.label == "ATTENTION" && orders.details == ["new (no run history: all new): 1 tie-out order"])
    let all = RunStatus.decide(RunStatus.Inputs(tieOut: TieOutFixture.tieOut))
    #expect(all.reason == "6 new")
  }

  @Test func rejectedRowsAboveOnePerMilleAreACase() {
    // 1 of 1,000 is the limit itself (0.1 %): not above it.
    #expect(RunStatus.decide(RunStatus.Inputs(inputs: [Self.input(read: 1000, rejected: 1)])).label == "OK")
    let above = RunStatus.decide(RunStatus.Inputs(inputs: [Self.input(read: 1999, rejected: 2)]))
    #expect(above.label == "ATTENTION" && above.reason == "1 new")
    #expect(
      above.details == [
        "new (no run history: all new): 1 input with rejected rows",
        "rejected rows above 0.1 %: exports/play/s.csv 2 of 1,999 (see rejects/)",
      ])
  }

  @Test func aLineTheRunDrewAttentionToIsAttention() {
    let status = RunStatus.decide(RunStatus.Inputs(attention: ["play.sales x.csv is damaged: 2 % rejected"]))
    #expect(status.label == "ATTENTION" && status.reason == "1 input needs a look")
    #expect(status.details == ["play.sales x.csv is damaged: 2 % rejected"])
  }

  @Test func anExceededThresholdIsAlertAndKeepsTheOtherCausesInTheReason() {
    let status = RunStatus.decide(RunStatus.Inputs(breaches: [Self.breach], findings: [Self.finding("a", 9)]))
    #expect(status.words == [.alert] && status.label == "ALERT" && status.worst == .alert)
    #expect(status.reason == "1 threshold exceeded, 1 new")
    #expect(status.details.first == Self.breach.text)
  }

  @Test func missingInputsAreIncomplete() {
    let status = RunStatus.decide(RunStatus.Inputs(incomplete: ["play.voided: no file matches 'v*.jsonl'"]))
    #expect(status.label == "INCOMPLETE" && status.reason == "1 input incomplete")
    #expect(status.details == ["play.voided: no file matches 'v*.jsonl'"])
  }

  @Test func alertAndIncompleteShowTogetherAlertFirst() {
    let status = RunStatus.decide(
      RunStatus.Inputs(
        breaches: [Self.breach], incomplete: ["a", "b"], attention: ["c"], findings: [Self.finding("a", 9)]))
    #expect(status.label == "ALERT, INCOMPLETE" && status.worst == .alert)
    #expect(status.reason == "1 threshold exceeded, 2 inputs incomplete, 1 new, 1 input needs a look")
  }

  @Test func moneyAtStakeCountsOneChargeOnceInTheReportingCurrency() throws {
    // One charge of 10.00 USD behind two findings of one chain (an orphaned charge and the notification
    // about it), a duplicate claim of another chain, and a EUR charge converted at 1 EUR = 1.10 USD.
    let charge = Self.finding("", 1000, chain: "tx-1")
    let notified = Self.finding("", 1000, chain: "tx-1", reason: .unprocessed)
    let other = Self.finding("b", 500, chain: "tx-2", reason: .multipleUsers)
    let euro = Finding(
      reason: .lockedOut, store: .play, chainKey: "GPA.1", userId: "c", productId: "pro", currency: Self.eur,
      amountMinor: 200, detail: "")
    let fx = SummaryFX(reportingCurrency: Self.usd, label: "test") { money in
      money.currency == Self.usd ? money.minor : (money.currency == Self.eur ? money.minor * 11 / 10 : nil)
    }
    let status = RunStatus.decide(RunStatus.Inputs(findings: [charge, notified, other, euro], fx: fx))
    let stake = try #require(status.newAtStake)
    #expect(stake.reportingMinor == Int64(1000 + 500 + 220) && stake.groups == 3 && stake.cases == 4)
    #expect(status.casesPhrase == "4 new (17.20 USD), 0 open")
    // Without a rate the money stays in its own currency.
    let noRate = SummaryFX(reportingCurrency: Self.usd, label: "test") {
      $0.currency == Self.usd ? $0.minor : nil
    }
    let split = RunStatus.decide(RunStatus.Inputs(findings: [charge, notified, euro], fx: noRate))
    #expect(split.casesPhrase == "3 new (10.00 USD + 2.00 EUR (no rate)), 0 open")
  }

  @Test func tieOutDifferencesAreCasesWithStableKeys() {
    let cells = TieOutFixture.cells.filter { $0.status != .match }
    let candidates = CaseCandidate.all(
      findings: [], tieOut: TieOut(cells: cells, orders: []), inputs: [], rejectedShareLimitPerMille: 1)
    #expect(candidates.count == cells.count)
    #expect(Set(candidates.map(\.key)).count == cells.count)
    #expect(candidates.map(\.key) == cells.map { CaseCandidate($0).key })
    #expect(candidates.allSatisfy { !$0.countsAtStake && $0.key.count == 16 })
  }
}
