package import StoreReconCore

/// The run's money in the one reporting currency (issue 15): money at stake over the findings the
/// ranking considers (the new ones with run history, else all), and per store the gross and proceeds of
/// the report date beside the day before, with the change, and the month to date. Every amount is
/// converted with the summary's FX conversion (the table's rate on the report date); an amount with no
/// rate is never counted as zero: it is left out and counted in ``unconvertedFindings`` or
/// ``unconvertedRows``. Only where the run has an FX table.
package struct ReportingTotals: Sendable, Equatable {
  /// One store's (or, with `store == nil`, every store's) revenue in the reporting currency.
  package struct Line: Sendable, Equatable {
    /// The store; `nil` for the total of every store.
    package var store: Store?
    /// Gross on the report date and on the day before.
    package var grossMinor: Int64 = 0
    package var previousGrossMinor: Int64 = 0
    /// Proceeds (after the store's commission) on the report date and on the day before.
    package var proceedsMinor: Int64 = 0
    package var previousProceedsMinor: Int64 = 0
    /// Gross from the first of the report date's month through the report date.
    package var monthGrossMinor: Int64 = 0
  }

  /// The reporting currency.
  package var currency: Currency
  /// The FX table's label (`fx/rates.csv on 2026-11-29`).
  package var label: String
  /// Money at stake over the considered findings that have an amount and a rate.
  package var atStakeMinor: Int64
  /// How many findings that sum covers.
  package var atStakeFindings: Int
  /// Considered findings without an amount, or whose currency has no rate.
  package var unconvertedFindings: Int
  /// Per store (store order), then the total of every store.
  package var lines: [Line]
  /// Revenue rows of these days (report date, the day before, the month) whose currency has no rate.
  package var unconvertedRows: Int

  /// The totals of `facts`, or `nil` without an FX table.
  package static func build(_ facts: SummaryFacts) -> ReportingTotals? {
    guard let fx = facts.fx else { return nil }
    var pool = facts.findings
    if let history = facts.history { pool = pool.filter { history.newFindingKeys.contains($0.key) } }
    var counted = 0
    var unconverted = 0
    var priced: [Finding] = []
    for f in pool {
      guard let c = f.currency, let a = f.amountMinor, fx.convert(Money(minor: a, currency: c)) != nil else {
        unconverted += 1
        continue
      }
      counted += 1
      priced.append(f)
    }
    // Counted once per charge (docs/cases.md#money-at-stake), as the status line counts it.
    let atStake = ReportSummary.converted(priced, fx)?.minor ?? 0
    let (lines, gaps) = revenueLines(facts.revenue, date: facts.date, fx: fx)
    return ReportingTotals(
      currency: fx.reportingCurrency, label: fx.label, atStakeMinor: atStake, atStakeFindings: counted,
      unconvertedFindings: unconverted, lines: lines, unconvertedRows: gaps)
  }

  /// Per store and in all, the converted revenue of the report date, the day before and the month; and
  /// how many rows of those days had no rate.
  static func revenueLines(_ revenue: [RevenueRow], date: CivilDate, fx: SummaryFX) -> ([Line], Int) {
    let previous = CivilDate(daysSinceEpoch: date.daysSinceEpoch - 1)
    let monthStart = CivilDate(year: date.year, month: date.month, day: 1)
    var byStore: [Store: Line] = [:]
    var gaps = 0
    for row in revenue where (row.day >= monthStart || row.day == previous) && row.day <= date {
      let gross = fx.convert(Money(minor: row.grossMinor, currency: row.currency))
      let proceeds = fx.convert(Money(minor: row.proceedsMinor, currency: row.currency))
      guard let gross, let proceeds else {
        gaps += 1
        continue
      }
      var line = byStore[row.store] ?? Line(store: row.store)
      if row.day == date {
        line.grossMinor = add(line.grossMinor, gross)
        line.proceedsMinor = add(line.proceedsMinor, proceeds)
      }
      if row.day == previous {
        line.previousGrossMinor = add(line.previousGrossMinor, gross)
        line.previousProceedsMinor = add(line.previousProceedsMinor, proceeds)
      }
      if row.day >= monthStart { line.monthGrossMinor = add(line.monthGrossMinor, gross) }
      byStore[row.store] = line
    }
    let stores = Store.allCases.compactMap { byStore[$0] }
    guard !stores.isEmpty else { return ([], gaps) }
    var total = Line(store: nil)
    for line in stores {
      total.grossMinor = add(total.grossMinor, line.grossMinor)
      total.previousGrossMinor = add(total.previousGrossMinor, line.previousGrossMinor)
      total.proceedsMinor = add(total.proceedsMinor, line.proceedsMinor)
      total.previousProceedsMinor = add(total.previousProceedsMinor, line.previousProceedsMinor)
      total.monthGrossMinor = add(total.monthGrossMinor, line.monthGrossMinor)
    }
    return (stores + [total], gaps)
  }

  /// A sum held at Int64's bounds rather than wrapping (no real total comes near them).
  static func add(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b < 0 ? .min : .max) : sum
  }

  /// `now - before` as a signed amount and, where `before` is not zero, the change in percent to one
  /// decimal (`+12.5 %`), rounded half away from zero in integer arithmetic.
  package static func change(_ now: Int64, _ before: Int64, _ currency: Currency) -> String {
    let (difference, overflow) = now.subtractingReportingOverflow(before)
    guard !overflow else { return "—" }
    let amount = (difference > 0 ? "+" : "") + Grouped.amount(difference, currency)
    guard before != 0, difference.magnitude <= UInt64(Int64.max / 2000) else { return amount }
    let permille = (difference * 2000 / Int64(before.magnitude) + (difference >= 0 ? 1 : -1)) / 2
    let sign = permille > 0 ? "+" : (permille < 0 ? "-" : "")
    let whole = permille.magnitude / 10
    return amount + " (\(sign)\(whole).\(permille.magnitude % 10) %)"
  }
}
