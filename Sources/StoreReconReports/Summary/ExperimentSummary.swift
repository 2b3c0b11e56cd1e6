package import StoreReconCore

/// The words the run prints about experiment readouts: progress lines on stderr, the summary on stdout.
package enum ExperimentSummary {
  /// One progress line per experiment.
  package static func progressLine(_ r: Readout) -> String {
    let arms = r.arms.map { arm in
      let paid = arm.reporting.conversionRate.map { " (\(Grouped.percent($0)) paid)" } ?? ""
      return "\(arm.arm.id) \(arm.reporting.assigned)\(paid)"
    }.joined(separator: ", ")
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

  /// The verdict the e-mail summary prints for one readout: the verdict in one sentence, the
  /// sample-ratio and FX lines as notes, and per arm its figures (P(best) tinted).
  package static func verdict(_ r: Readout) -> ExperimentVerdict {
    let currency = r.reportingCurrency
    var notes: [String] = []
    if let srm = r.srm {
      notes.append(
        "Sample ratio p = \(ExperimentTables.pValue(srm.pValue))"
          + (r.hasSampleRatioMismatch
            ? " — MISMATCH: assignment is broken, no winner is named." : " (no mismatch)."))
    }
    if !r.fxGaps.isEmpty { notes.append(gapLine(r)) }
    let arms = r.arms.map { arm -> ExperimentVerdict.Arm in
      let row = arm.reporting
      // The product manager's readout first: verdict, relative lift with its interval, P(best).
      var figures: [(String, String)] = [("verdict", arm.verdict.rawValue)]
      figures.append(("lift vs control", arm.difference.flatMap(liftText) ?? "—"))
      figures.append(("P(best)", arm.probabilityBest.map(Grouped.percent) ?? "—"))
      figures += [("assigned", Grouped.count(row.assigned)), ("paid", Grouped.count(row.paidConversions))]
      figures.append(("conversion", row.conversionRate.map(Grouped.percent) ?? "—"))
      figures.append(
        (
          "per assigned user",
          row.revenuePerAssignedMinor.map { "\(Grouped.amount($0, currency)) \(currency.code)" } ?? "—"
        ))
      var versus = "—"
      if let d = arm.difference, let i = d.bootstrap {
        versus =
          "\(format(d.estimate, currency, signed: true)) [\(format(i.low, currency, signed: true)), "
          + "\(format(i.high, currency, signed: true))]"
      }
      figures.append(("vs control (\(currency.code))", versus))
      figures.append(("maturity", maturityText(arm, threshold: r.experiment.maturityThreshold) ?? "—"))
      // Counts and money never share a column: the refunds' count, then their money.
      figures.append(("refunds (count)", Grouped.count(row.refunds)))
      figures.append(("refunded (\(currency.code))", Grouped.amount(row.refundsMinor, currency)))
      figures.append(("proceeds", row.proceedsSource))
      var line = ExperimentVerdict.Arm(id: arm.arm.id, figures: figures)
      if let best = arm.probabilityBest, let tint = bestTint(best) { line.tints["P(best)"] = tint }
      return line
    }
    var verdict = ExperimentVerdict(
      experimentId: r.experiment.id, verdict: sentence(r), notes: notes, arms: arms)
    verdict.differences = r.arms.dropFirst().compactMap { arm in
      guard let d = arm.difference, let i = d.bootstrap else { return nil }
      return SVGChart.Estimate(label: arm.arm.id, estimate: d.estimate, low: i.low, high: i.high)
    }
    verdict.differenceLabel = { format($0, currency, signed: true) }
    return verdict
  }

  /// The background a P(best) is shown on: green at 95 % or more (a clear best), red at 5 % or less (a
  /// clear not-best), none between.
  package static func bestTint(_ best: Double) -> ExperimentVerdict.Tint? {
    best >= 0.95 ? .good : (best <= 0.05 ? .bad : nil)
  }

  /// The readout's verdict in one sentence, for a product manager: what to do now.
  package static func sentence(_ r: Readout) -> String {
    let currency = r.reportingCurrency
    guard let control = r.arms.first else { return "No arm is configured." }
    if r.hasSampleRatioMismatch {
      return "No winner: the assigned counts do not match the configured weights (sample ratio p = "
        + "\(r.srm.map { ExperimentTables.pValue($0.pValue) } ?? "?")), so assignment is broken — fix it first."
    }
    if !r.fxGaps.isEmpty {
      return "No winner yet: \(Grouped.count(r.fxGaps.count)) credited charges have no FX rate into "
        + "\(currency.code) — add the rates, then read again."
    }
    let immature = r.arms.filter { $0.verdict == .immature && $0.maturesAt != nil }
    if r.arms.contains(where: { $0.verdict == .immature }) {
      let waits = immature.compactMap { arm in maturityText(arm, threshold: r.experiment.maturityThreshold) }
      let late = immature.compactMap(\.maturesAt).max()
      return "Too early to call: "
        + (waits.isEmpty
          ? "an arm is not yet mature"
          : zip(immature, waits).map {
            "\($0.arm.id) is \($1)"
          }.joined(separator: ", "))
        + (late.map { "; read it again on \(longDate($0))." } ?? ".")
    }
    let challengers = r.arms.dropFirst()
    guard !challengers.isEmpty else { return "\(control.arm.id) is the only arm: nothing to compare." }
    let parts = challengers.map { arm -> String in
      let best = arm.probabilityBest.map { ", P(best) \(Grouped.percent($0))" } ?? ""
      var figures = ""
      if let d = arm.difference {
        figures = " (\(format(d.estimate, currency, signed: true)) \(currency.code) per assigned user"
        if let lift = liftText(d) { figures += ", \(lift)" }
        figures += best + ")"
      }
      switch arm.verdict {
      case .leading: return "\(arm.arm.id) earns more than \(control.arm.id)\(figures)"
      case .trailing: return "\(arm.arm.id) earns less than \(control.arm.id)\(figures)"
      default: return "\(arm.arm.id) shows no difference from \(control.arm.id) yet\(figures)"
      }
    }
    let leaders = challengers.filter { $0.verdict == .leading }
    let advice =
      leaders.count == 1
      ? " — \(leaders[0].arm.id) is the one to roll out."
      : leaders.isEmpty
        ? " — keep running, or accept there is no difference." : " — compare the leading arms."
    return parts.joined(separator: "; ") + advice
  }

  /// An arm's maturity for a person: `100% mature`, or `62% mature — wait until 14 Dec 2026` (the day,
  /// UTC, its credited subscriptions reach the threshold, ``ArmReadout/maturesAt``); `nil` without a
  /// credited subscription.
  package static func maturityText(_ arm: ArmReadout, threshold: Double) -> String? {
    guard let share = arm.reporting.matureShare else { return nil }
    var text = "\(Grouped.percent(share)) mature"
    if share < threshold, let at = arm.maturesAt { text += " — wait until \(longDate(at))" }
    return text
  }

  /// A day as people write it: `14 Dec 2026` (UTC).
  package static func longDate(_ instant: Instant) -> String {
    let day = CivilDate(daysSinceEpoch: instant.ms.floorDivided(by: 86_400_000).quotient)
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    return "\(day.day) \(months[max(0, min(11, day.month - 1))]) \(day.year)"
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
        if let rate = row.conversionRate { text += " (\(Grouped.percent(rate)))" }
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
        if let maturity = maturityText(arm, threshold: r.experiment.maturityThreshold) {
          text += "; \(maturity)"
        }
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
