import Testing

@testable import StoreReconCore
@testable import StoreReconReports

/// The status decision table (docs/reports.md#the-status): each row, alone and where rows meet.
struct RunStatusTests {
  static let usd = Currency.named("USD")!

  static func finding(_ user: String, _ amount: Int64?) -> Finding {
    Finding(
      reason: .unclaimed, store: .appStore, chainKey: "chain-\(user)", userId: user,
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

  @Test func nothingApplies() {
    let status = RunStatus.decide(RunStatus.Inputs(inputs: [Self.input(read: 1000, rejected: 0)]))
    #expect(status.words.isEmpty && status.label == "OK" && status.worst == nil)
    #expect(status.reason == "nothing new needs a look" && status.details.isEmpty)
    #expect(status.line == "OK — nothing new needs a look")
  }

  @Test func withoutHistoryEveryFindingWithMoneyAtStakeIsNew() {
    let status = RunStatus.decide(
      RunStatus.Inputs(findings: [Self.finding("a", 499), Self.finding("b", 1_000_000)]))
    #expect(status.label == "ATTENTION" && status.worst == .attention)
    #expect(status.reason == "2 new with money at stake")
    #expect(status.details == ["2 findings (no run history: all new) with money at stake"])
  }

  @Test func withHistoryOnlyNewFindingsCount() {
    let old = Self.finding("a", 499)
    let new = Self.finding("b", 250)
    let seenBefore = RunStatus.decide(RunStatus.Inputs(findings: [old], newFindingKeys: []))
    #expect(seenBefore.label == "OK", "\(seenBefore.reason)")
    let fresh = RunStatus.decide(RunStatus.Inputs(findings: [old, new], newFindingKeys: [new.key]))
    #expect(fresh.label == "ATTENTION" && fresh.reason == "1 new with money at stake")
    #expect(fresh.details == ["1 new findings with money at stake"])
  }

  @Test func aFindingWithoutMoneyAtStakeNeedsNoLook() {
    let status = RunStatus.decide(RunStatus.Inputs(findings: [Self.finding("a", nil), Self.finding("b", 0)]))
    #expect(status.label == "OK")
  }

  @Test func anyTieOutDifferenceIsAttention() {
    let matching = TieOut(
      cells: TieOutFixture.cells.filter { $0.status == .match },
      orders: TieOutFixture.orders.filter { $0.status == .match })
    #expect(RunStatus.decide(RunStatus.Inputs(tieOut: matching)).label == "OK")
    let one = TieOut(cells: TieOutFixture.cells.filter { $0.status == .reportMore }, orders: [])
    let cell = RunStatus.decide(RunStatus.Inputs(tieOut: one))
    #expect(cell.label == "ATTENTION" && cell.reason == "1 tie-out difference")
    #expect(cell.details == ["tie-out: 1 cell differ from the stores' reports"])
    let orders = RunStatus.decide(
      RunStatus.Inputs(
        tieOut: TieOut(cells: [], orders: TieOutFixture.orders.filter { $0.status == .feeDiffers })))
    #expect(
      orders.label == "ATTENTION"
        && orders.details == ["tie-out: 1 Play order differ from the stores' reports"])
    let all = RunStatus.decide(RunStatus.Inputs(tieOut: TieOutFixture.tieOut))
    #expect(all.reason == "6 tie-out differences")
  }

  @Test func rejectedRowsAboveOnePerMilleAreAttention() {
    // 1 of 1,000 is the limit itself (0.1 %): not above it.
    #expect(RunStatus.decide(RunStatus.Inputs(inputs: [Self.input(read: 1000, rejected: 1)])).label == "OK")
    let above = RunStatus.decide(RunStatus.Inputs(inputs: [Self.input(read: 1999, rejected: 2)]))
    #expect(above.label == "ATTENTION" && above.reason == "1 input with rejected rows")
    #expect(above.details == ["rejected rows above 0.1 %: exports/play/s.csv 2 of 1,999 (see rejects/)"])
  }

  @Test func aLineTheRunDrewAttentionToIsAttention() {
    let status = RunStatus.decide(RunStatus.Inputs(attention: ["play.sales x.csv is damaged: 2 % rejected"]))
    #expect(status.label == "ATTENTION" && status.reason == "1 input needs a look")
    #expect(status.details == ["play.sales x.csv is damaged: 2 % rejected"])
  }

  @Test func anExceededThresholdIsAlertAndKeepsTheOtherCausesInTheReason() {
    let status = RunStatus.decide(RunStatus.Inputs(breaches: [Self.breach], findings: [Self.finding("a", 9)]))
    #expect(status.words == [.alert] && status.label == "ALERT" && status.worst == .alert)
    #expect(status.reason == "1 threshold exceeded, 1 new with money at stake")
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
    #expect(
      status.reason
        == "1 threshold exceeded, 2 inputs incomplete, 1 new with money at stake, 1 input needs a look")
  }
}
