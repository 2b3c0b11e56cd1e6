import Foundation
import StoreReconCore
import StoreReconReports

extension PriceTestsWorkbook {
  /// The bold line above the readout in words: experiment, enrolment days, report date, currencies.
  static func titleLine(_ r: Readout) -> String {
    "Price test \(r.experiment.id): enrolment \(r.experiment.enrollStart) to \(r.experiment.enrollEnd), "
      + "read out as of the end of \(r.reportDate); money in \(r.reportingCurrency.code) on reporting rows, "
      + "in the charge currency on currency rows"
  }

  /// The readout in words, one sentence a line: sample ratio, maturity per arm, FX gaps, revenue per
  /// assigned user per arm (against control for the others), what was not credited, how to read verdicts.
  static func lines(_ r: Readout) -> [String] {
    var lines = [srmLine(r)]
    lines += r.arms.map { maturityLine($0, threshold: r.experiment.maturityThreshold) }
    if !r.fxGaps.isEmpty { lines.append("FX gaps: " + ExperimentSummary.gapLine(r)) }
    let control = r.arms.first?.arm.id ?? "control"
    lines += r.arms.map { revenueLine($0, control: control, currency: r.reportingCurrency) }
    let before = r.arms.map { "\($0.arm.id) \($0.chainsAssignedAfterPurchase)" }.joined(separator: ", ")
    let excluded = r.arms.map { "\($0.arm.id) \($0.chainsExcluded)" }.joined(separator: ", ")
    lines.append(
      "Not credited: purchases begun before the user's assignment (\(before)); sandbox, tester or Family "
        + "Sharing purchases (\(excluded))")
    lines.append(
      "Verdicts: leading / trailing = the 95% bootstrap interval of the difference against control lies "
        + "wholly above / below zero; inconclusive = it includes zero; immature = too early to call; srm and "
        + "fx_gap = no winner is named")
    lines.append(
      "Proceeds and revenue per assigned user are estimates from the fee schedule until the stores' "
        + "settlement files are read")
    return lines
  }

  /// `Sample ratio: assigned 920 / 915 (control / high) against weights 50 / 50, chi-square p = 0.907 —
  /// no mismatch`, or `… — MISMATCH (p < 0.001): no winner is named`.
  static func srmLine(_ r: Readout) -> String {
    let assigned = r.arms.map { String($0.reporting.assigned) }.joined(separator: " / ")
    let names = r.arms.map(\.arm.id).joined(separator: " / ")
    let weights = r.arms.map { String($0.arm.weight) }.joined(separator: " / ")
    let start = "Sample ratio: assigned \(assigned) (\(names)) against weights \(weights)"
    guard let srm = r.srm else { return start + " — nobody is assigned yet: no test" }
    let verdict =
      r.hasSampleRatioMismatch
      ? "MISMATCH (p < \(pText(Readout.srmThreshold))): no winner is named" : "no mismatch"
    return start + ", chi-square p = \(pText(srm.pValue)) — \(verdict)"
  }

  /// `control: 100% of credited chains have lived a full billing cycle (threshold 90%)`, with
  /// `— immature: too early to call; wait until 14 Dec 2026` when below the threshold (the day its
  /// credited subscriptions reach it, ``ArmReadout/maturesAt``).
  static func maturityLine(_ arm: ArmReadout, threshold: Double) -> String {
    let limit = "(threshold \(percentText(threshold)))"
    guard let share = arm.reporting.matureShare else {
      return "\(arm.arm.id): no credited subscription yet, so no billing cycle to have lived \(limit)"
    }
    let line =
      "\(arm.arm.id): \(percentText(share)) of credited chains have lived a full billing cycle \(limit)"
    guard share < threshold else { return line }
    let wait = arm.maturesAt.map { "; wait until \(ExperimentSummary.longDate($0))" } ?? ""
    return line + " — immature: too early to call" + wait
  }

  /// `high: 8.51 USD per assigned user (bootstrap [8.08, 8.95], Welch's t [8.07, 8.96]); against control
  /// +1.04 USD (bootstrap [+0.53, +1.56], Welch's t [+0.52, +1.57], 1,830 df) — leading`.
  static func revenueLine(_ arm: ArmReadout, control: String, currency: Currency) -> String {
    let code = currency.code
    let row = arm.reporting
    var line = "\(arm.arm.id): "
    if let rpa = row.revenuePerAssignedMinor {
      line += "\(currency.format(rpa)) \(code) per assigned user"
      line += intervals(bootstrap: row.revenuePerAssignedInterval, welch: arm.welch, df: nil, currency)
    } else {
      line += "nobody assigned"
    }
    if let d = arm.difference {
      line += "; against \(control) \(ExperimentSummary.format(d.estimate, currency, signed: true)) \(code)"
      line += intervals(
        bootstrap: d.bootstrap, welch: d.welch, df: d.welchDegreesOfFreedom, currency, signed: true)
    }
    return line + " — \(arm.verdict.rawValue)"
  }

  /// ` (95% bootstrap [a, b], Welch's t [c, d], N df)`, leaving out what is unknown.
  static func intervals(
    bootstrap: Interval?, welch: Interval?, df: Double?, _ currency: Currency, signed: Bool = false
  ) -> String {
    func pair(_ i: Interval) -> String {
      "[\(ExperimentSummary.format(i.low, currency, signed: signed)), "
        + "\(ExperimentSummary.format(i.high, currency, signed: signed))]"
    }
    var parts: [String] = []
    parts.append(bootstrap.map { "95% bootstrap \(pair($0))" } ?? "no bootstrap interval (too few users)")
    if let welch {
      var text = "Welch's t \(pair(welch))"
      if let df, df.isFinite, df < 1e12 {
        text += ", \(grouped(Int64(df.rounded(.toNearestOrEven)))) df"
      }
      parts.append(text)
    }
    return " (" + parts.joined(separator: ", ") + ")"
  }

  /// A p-value in words: three decimals (`0.907`), or two significant digits below 0.001 (`2.1e-07`).
  static func pText(_ p: Double) -> String {
    guard p.isFinite else { return "?" }
    if p >= 0.001 { return Currency.render(Int64((p * 1000).rounded(.toNearestOrEven)), scale: 3) }
    return String(format: "%.1e", p)
  }

  /// A share (0…1) as a percentage with at most one decimal: `100%`, `87.5%`, `90%`.
  static func percentText(_ share: Double) -> String { Grouped.percent(share) }

  /// A whole number with thousands separators: `1,830`.
  static func grouped(_ value: Int64) -> String { Grouped.integer(value) }
}
