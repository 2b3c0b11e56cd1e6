import Testing

@testable import StoreReconCore

/// The case states (docs/cases.md): new, open, reopened, settled, resolved, and what decisions do.
struct CaseBookTests {
  static let usd = Currency.named("USD")!
  static let day = CivilDate(year: 2026, month: 11, day: 29)
  static let before = CivilDate(year: 2026, month: 11, day: 28)
  static let weekAgo = CivilDate(year: 2026, month: 11, day: 22)

  static func finding(_ chain: String, _ amount: Int64?) -> Finding {
    Finding(
      reason: .lockedOut, store: .appStore, chainKey: chain, userId: "u-\(chain)", productId: "p",
      currency: usd,
      amountMinor: amount, detail: "")
  }

  static func accept(_ key: String, until: CivilDate? = nil, cap: Int64? = nil) -> CaseDecision {
    CaseDecision(
      key: key, verdict: .accept, reason: "known", by: "ana", until: until, maxAmountMinor: cap, line: 2)
  }

  static func book(
    _ current: [Finding], previous: [Finding], firstSeen: [String: CivilDate] = [:],
    decisions: [CaseDecision] = []
  ) -> CaseBook {
    CaseBook.build(
      candidates: current.map { CaseCandidate($0) }, date: day,
      previous: (before, previous.map { RecordedFinding($0) }), firstSeen: firstSeen, decisions: decisions,
      historyKept: true)
  }

  static func state(_ book: CaseBook, _ f: Finding) -> Case.State? {
    book.cases.first { $0.key == f.key }?.state
  }

  @Test func newOpenResolvedAndAge() {
    let a = Self.finding("a", 100)
    let b = Self.finding("b", 200)
    let gone = Self.finding("c", 300)
    let book = Self.book(
      [a, b], previous: [a, gone], firstSeen: [a.key: Self.weekAgo, gone.key: Self.weekAgo])
    #expect(
      Self.state(book, a) == .open && Self.state(book, b) == .new && Self.state(book, gone) == .resolved)
    let open = book.cases.first { $0.key == a.key }
    #expect(open?.firstSeen == Self.weekAgo && open?.ageDays == 7)
    let fresh = book.cases.first { $0.key == b.key }
    #expect(fresh?.firstSeen == Self.day && fresh?.ageDays == 0)
  }

  @Test func aCaseThatComesBackIsReopened() {
    let a = Self.finding("a", 100)
    let book = Self.book([a], previous: [], firstSeen: [a.key: Self.weekAgo])
    #expect(Self.state(book, a) == .reopened)
  }

  @Test func aDecisionSettlesUntilItExpiresOrTheAmountGrows() {
    let a = Self.finding("a", 1000)
    #expect(Self.state(Self.book([a], previous: [a], decisions: [Self.accept(a.key)]), a) == .settled)
    // `until` is the last report date the decision holds for.
    #expect(
      Self.state(Self.book([a], previous: [a], decisions: [Self.accept(a.key, until: Self.day)]), a)
        == .settled)
    let expired = Self.book([a], previous: [a], decisions: [Self.accept(a.key, until: Self.before)])
    #expect(Self.state(expired, a) == .open)
    #expect(expired.cases[0].note.contains("expired"))
    #expect(
      Self.state(Self.book([a], previous: [a], decisions: [Self.accept(a.key, cap: 1000)]), a) == .settled)
    let grown = Self.book([a], previous: [a], decisions: [Self.accept(a.key, cap: 999)])
    #expect(Self.state(grown, a) == .reopened && grown.cases[0].note.contains("grew past"))
    // A later line for the same key replaces an earlier one.
    let later = Self.book([a], previous: [a], decisions: [Self.accept(a.key), Self.accept(a.key, cap: 1)])
    #expect(Self.state(later, a) == .reopened)
  }

  @Test func unknownDecisionKeysAreNamed() {
    let a = Self.finding("a", 100)
    let book = Self.book([a], previous: [])
    let typo = Self.accept("0123456789abcdef")
    #expect(book.unknownDecisions([Self.accept(a.key), typo], knownKeys: []) == [typo])
    #expect(book.unknownDecisions([typo], knownKeys: ["0123456789abcdef"]).isEmpty)
  }

  @Test func decisionLinesAreCheckedFieldByField() {
    func parse(_ fields: [String]) -> String? {
      if case .failure(let e) = CaseDecision.parse(fields, line: 3) { return e.description }
      return nil
    }
    #expect(parse(["k", "accept", "known", "ana", "2026-12-31", "500"]) == nil)
    #expect(parse(["k", "accept", "known", "ana", "", ""]) == nil)
    #expect(parse(["k", "ignore", "known", "ana", "", ""])?.hasPrefix("line 3: decision 'ignore'") == true)
    #expect(parse(["k", "accept", "", "ana", "", ""])?.contains("reason is empty") == true)
    #expect(parse(["k", "accept", "known", "", "", ""])?.contains("'by' is empty") == true)
    #expect(parse(["k", "accept", "known", "ana", "31/12/2026", ""])?.contains("not a date") == true)
    #expect(parse(["k", "accept", "known", "ana", "", "1.5"])?.contains("max_amount_minor") == true)
    #expect(parse(["k", "accept"])?.contains("expected 6 fields") == true)
  }
}
