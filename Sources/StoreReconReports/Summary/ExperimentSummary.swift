package import StoreReconCore

/// The words the run prints about experiment readouts: progress lines on stderr, the summary on stdout.
package enum ExperimentSummary {
  /// One progress line per experiment.
  package static func progressLine(_ r: Readout) -> String {
    let arms = r.arms.map { "\($0.arm.id) \($0.reporting.assigned)" }.joined(separator: ", ")
    return "read out experiment \(r.experiment.id): assigned \(arms); \(r.lineage.count) credited charges"
  }

  /// The FX gap warning: how many credited charges lack a rate, and for which currencies from which day.
  package static func gapLine(_ r: Readout) -> String {
    var first: [Currency: CivilDate] = [:]
    for gap in r.fxGaps { first[gap.currency] = min(first[gap.currency] ?? gap.day, gap.day) }
    let list = first.keys.sorted().map { "\($0.code) from \(first[$0].map { "\($0)" } ?? "?")" }
    return
      "experiment \(r.experiment.id): \(r.fxGaps.count) credited charge(s) have no FX rate (\(list.joined(separator: ", "))); "
      + "reporting-currency revenue is incomplete and no winner is named"
  }

  /// The verdict the e-mail summary prints for one readout: the non-control arms' verdicts in words,
  /// the sample-ratio and FX lines as notes, and per arm its headline figures.
  package static func verdict(_ r: Readout) -> ExperimentVerdict {
    let currency = r.reportingCurrency
    let challengers = r.arms.dropFirst().map { "\($0.arm.id) \($0.verdict.rawValue)" }
    var notes: [String] = []
    if let srm = r.srm {
      notes.append(
        "sample ratio p = \(ExperimentTables.pValue(srm.pValue))"
          + (r.hasSampleRatioMismatch
            ? " — MISMATCH: assignment is broken, no winner is named" : " (no mismatch)"))
    }
    if !r.fxGaps.isEmpty { notes.append(gapLine(r)) }
    let arms = r.arms.map { arm -> ExperimentVerdict.Arm in
      let row = arm.reporting
      // The product manager's readout first: verdict, relative lift with its interval, P(best).
      var figures: [(String, String)] = [("verdict", arm.verdict.rawValue)]
      figures.append(("lift vs control", arm.difference.flatMap(liftText) ?? "—"))
      figures.append(("P(best)", arm.probabilityBest.map(Grouped.percent) ?? "—"))
      figures += [("assigned", Grouped.count(row.assigned)), ("paid", Grouped.count(row.paidConversions))]
      if let rate = row.conversionRate { figures.append(("conversion", ExperimentTables.share(rate))) }
      if let rpa = row.revenuePerAssignedMinor {
        figures.append(("per assigned user", "\(Grouped.amount(rpa, currency)) \(currency.code)"))
      }
      if let d = arm.difference, let i = d.bootstrap {
        figures.append(
          (
            "vs control",
            "\(format(d.estimate, currency, signed: true)) [\(format(i.low, currency, signed: true)), "
              + "\(format(i.high, currency, signed: true))]"
          ))
      }
      figures.append(("proceeds", row.proceedsSource))
      return ExperimentVerdict.Arm(id: arm.arm.id, figures: figures)
    }
    var verdict = ExperimentVerdict(
      experimentId: r.experiment.id,
      verdict: challengers.isEmpty ? "no challenger arm" : challengers.joined(separator: ", "),
      notes: notes, arms: arms)
    verdict.differences = r.arms.dropFirst().compactMap { arm in
      guard let d = arm.difference, let i = d.bootstrap else { return nil }
      return SVGChart.Estimate(label: arm.arm.id, estimate: d.estimate, low: i.low, high: i.high)
    }
    verdict.differenceLabel = { format($0, currency, signed: true) }
    return verdict
  }

  /// The summary lines of every readout.
  package static func lines(_ readouts: [Readout]) -> [String] {
    var lines: [String] = []
    for r in readouts {
      let currency = r.reportingCurrency
      lines.append(
        "experiment \(r.experiment.id) (enrolment \(r.experiment.enrollStart) to \(r.experiment.enrollEnd)):")
      for arm in r.arms {
        let row = arm.reporting
        var text = "  \(arm.arm.id): \(row.assigned) assigned, \(row.paidConversions) paid"
        if let rate = row.conversionRate { text += " (\(ExperimentTables.share(rate)))" }
        if let rpa = row.revenuePerAssignedMinor {
          text += ", \(Grouped.amount(rpa, currency)) \(currency.code) per assigned user"
          if let i = row.revenuePerAssignedInterval {
            text += " [\(format(i.low, currency)), \(format(i.high, currency))]"
          }
        }
        if let d = arm.difference, let i = d.bootstrap {
          text +=
            "; vs control \(format(d.estimate, currency, signed: true)) [\(format(i.low, currency, signed: true)), "
            + "\(format(i.high, currency, signed: true))]"
        }
        if let lift = arm.difference.flatMap(liftText) { text += "; lift \(lift)" }
        if let best = arm.probabilityBest { text += "; P(best) \(Grouped.percent(best))" }
        lines.append(text + " — \(arm.verdict.rawValue)")
      }
      if let srm = r.srm {
        lines.append(
          "  sample ratio: p = \(ExperimentTables.pValue(srm.pValue))"
            + (r.hasSampleRatioMismatch
              ? " — MISMATCH: assignment is broken, no winner is named" : " (no mismatch)"))
      }
      if !r.fxGaps.isEmpty { lines.append("  " + gapLine(r)) }
    }
    return lines
  }

  /// The relative lift over control with its bootstrap interval: `+12.3% [-2.1%, +25%]`; `nil` without
  /// one (control earned nothing).
  static func liftText(_ d: Difference) -> String? {
    guard let lift = d.relativeLift else { return nil }
    func signed(_ share: Double) -> String { (share >= 0 ? "+" : "") + Grouped.percent(share) }
    guard let i = d.relativeLiftInterval else { return signed(lift) }
    return "\(signed(lift)) [\(signed(i.low)), \(signed(i.high))]"
  }

  /// A statistic in minor units as an amount in the currency (rounded half-even to a minor unit).
  package static func format(_ minor: Double, _ currency: Currency, signed: Bool = false) -> String {
    guard minor.isFinite, abs(minor) < 9e18 else { return "?" }
    let value = Int64(minor.rounded(.toNearestOrEven))
    return (signed && value >= 0 ? "+" : "") + Grouped.amount(value, currency)
  }
}
