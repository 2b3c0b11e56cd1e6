package import StoreReconCore

/// Findings and money at stake per recorded run over the last days, from run history: one point per
/// report date that has a run (a day without a run is no point, not a zero). Money is in one currency:
/// the reporting currency where the run has an FX table (every day converted at the table's rate on the
/// report date), else the currency with the most at stake over these days (the others left out, and
/// said so). The summary's pictures and the workbook's **Findings trend** sheet draw this one value.
package struct FindingsTrend: Sendable, Equatable {
  /// The report dates with a run, oldest first.
  package var days: [CivilDate]
  /// The finding kinds (raw values) seen in these days, in ``Finding/Kind`` order (unknown ones last).
  package var kinds: [String]
  /// `findings[k][d]`: findings of kind `k` on run `d`.
  package var findings: [[Int]]
  /// The currency of ``atStakeMinor``; `nil` when no finding of these days has an amount.
  package var currency: Currency?
  /// `atStakeMinor[d]`: money at stake on run `d`, in minor units of ``currency``.
  package var atStakeMinor: [Int64]
  /// Where the amounts come from, e.g. `converted into USD (fx/rates.csv on 2026-11-29)`.
  package var note: String
  /// Findings with an amount left out of ``atStakeMinor`` (no rate, or another currency without FX).
  package var unconverted: Int

  /// How many days of history the pictures look back.
  package static let dayCount = 30

  /// The trend of `totals` (``HistoryDayTotal`` rows of the last days); `nil` with fewer than two runs,
  /// where a trend says nothing.
  package static func build(totals: [HistoryDayTotal], fx: SummaryFX?) -> FindingsTrend? {
    let days = Array(Set(totals.map(\.date))).sorted()
    guard days.count >= 2 else { return nil }
    let known = Finding.Kind.allCases.map(\.rawValue)
    let kinds = Array(Set(totals.map(\.kind))).sorted { a, b in
      let (i, j) = (known.firstIndex(of: a) ?? known.count, known.firstIndex(of: b) ?? known.count)
      return i != j ? i < j : a < b
    }
    let (currency, note, convert) = money(totals, fx: fx)
    var findings = [[Int]](repeating: [Int](repeating: 0, count: days.count), count: kinds.count)
    var atStake = [Int64](repeating: 0, count: days.count)
    var unconverted = 0
    for total in totals {
      guard let d = days.firstIndex(of: total.date), let k = kinds.firstIndex(of: total.kind) else {
        continue
      }
      findings[k][d] += total.findings
      guard let code = total.currency else { continue }
      if let minor = convert(code, total.amountMinor) {
        atStake[d] = RevenueTrend.add(atStake[d], minor)
      } else {
        unconverted += total.findings
      }
    }
    return FindingsTrend(
      days: days, kinds: kinds, findings: findings, currency: currency, atStakeMinor: atStake, note: note,
      unconverted: unconverted)
  }

  /// The trend's currency, its note, and the conversion of (code, amount) into it (`nil`: left out).
  static func money(_ totals: [HistoryDayTotal], fx: SummaryFX?) -> (
    Currency?, String, (String, Int64) -> Int64?
  ) {
    if let fx {
      return (
        fx.reportingCurrency, "converted into \(fx.reportingCurrency.code) (\(fx.label))",
        { code, minor in Currency.named(code).flatMap { fx.convert(Money(minor: minor, currency: $0)) } }
      )
    }
    var sums: [String: Int64] = [:]
    for t in totals { if let c = t.currency { sums[c] = RevenueTrend.add(sums[c] ?? 0, t.amountMinor) } }
    guard let largest = sums.keys.sorted().max(by: { (sums[$0] ?? 0) < (sums[$1] ?? 0) }),
      let currency = Currency.named(largest)
    else { return (nil, "no finding of these days has an amount", { _, _ in nil }) }
    let note =
      sums.count == 1
      ? "\(largest), the only currency"
      : "\(largest) only, the largest of \(sums.count) currencies (no FX table to convert the others)"
    return (currency, note, { code, minor in code == largest ? minor : nil })
  }

  /// All findings of run `d`.
  package func total(_ d: Int) -> Int { findings.reduce(0) { $0 + $1[d] } }
}
