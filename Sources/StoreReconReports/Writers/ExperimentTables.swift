import Foundation
package import StoreReconCore

/// Renders experiment readouts as `experiment_arms.csv` and `experiment_lineage.csv`. Writers decide nothing.
package enum ExperimentTables {
  /// The columns of `experiment_arms.csv`.
  package static let armsHeader = [
    "experiment_id", "arm_id", "scope", "currency", "assigned", "trials", "trial_conversions",
    "paid_conversions",
    "conversion_rate", "conversion_low", "conversion_high", "renewals", "refunds", "gross_minor",
    "refunds_minor",
    "proceeds_minor", "revenue_per_assigned_minor", "rpa_low", "rpa_high", "mature_share", "srm_p", "verdict",
    "proceeds_source", "relative_lift", "relative_lift_low", "relative_lift_high", "p_best",
  ]

  /// The columns of `experiment_lineage.csv`.
  package static let lineageHeader = [
    "experiment_id", "arm_id", "user_id", "store", "chain_key", "transaction_id", "renewal_number",
    "charged_at",
    "currency", "gross_minor", "proceeds_minor", "reporting_minor",
  ]

  /// `experiment_arms.csv`: per experiment (config order) the reporting rows of every arm (arm order),
  /// then the currency rows by currency code and arm order.
  package static func armsCSV(_ readouts: [Readout]) -> [UInt8] {
    var csv = CSVWriter(header: armsHeader)
    for readout in readouts {
      let srm = readout.srm.map { pValue($0.pValue) } ?? ""
      for (arm, row) in armRows(readout) {
        let verdict = row.scope == .reporting ? arm.verdict.rawValue : ""
        csv.row(fields(readout, arm, row, srm: srm, verdict: verdict))
      }
    }
    return csv.bytes
  }

  /// The rows of one experiment in table order: the reporting row of every arm (arm order), then the
  /// currency rows by currency code and arm order. `experiment_arms.csv` and `price-tests.xlsx` share it.
  package static func armRows(_ readout: Readout) -> [(arm: ArmReadout, row: ArmRow)] {
    var rows = readout.arms.map { (arm: $0, row: $0.reporting) }
    var currencyRows: [(currency: Currency, index: Int, arm: ArmReadout, row: ArmRow)] = []
    for (i, arm) in readout.arms.enumerated() {
      for row in arm.currencies { currencyRows.append((row.currency, i, arm, row)) }
    }
    currencyRows.sort { ($0.currency, $0.index) < ($1.currency, $1.index) }
    rows += currencyRows.map { (arm: $0.arm, row: $0.row) }
    return rows
  }

  static func fields(_ readout: Readout, _ arm: ArmReadout, _ r: ArmRow, srm: String, verdict: String)
    -> [String]
  {
    [
      readout.experiment.id, arm.arm.id, r.scope.rawValue, r.currency.code, String(r.assigned),
      String(r.trials),
      String(r.trialConversions), String(r.paidConversions), share(r.conversionRate),
      share(r.conversionInterval?.low), share(r.conversionInterval?.high), String(r.renewals),
      String(r.refunds),
      String(r.grossMinor), String(r.refundsMinor), String(r.proceedsMinor),
      r.revenuePerAssignedMinor.map { String($0) } ?? "", minor(r.revenuePerAssignedInterval?.low),
      minor(r.revenuePerAssignedInterval?.high), share(r.matureShare), srm, verdict, r.proceedsSource,
    ] + readoutFields(arm, reporting: r.scope == .reporting)
  }

  /// The product manager's columns, last (reporting rows only): relative lift over control with its
  /// bootstrap interval (shares: `0.1234` is +12.34 %), and the probability of being the best arm.
  static func readoutFields(_ arm: ArmReadout, reporting: Bool) -> [String] {
    guard reporting else { return ["", "", "", ""] }
    let d = arm.difference
    return [
      share(d?.relativeLift), share(d?.relativeLiftInterval?.low), share(d?.relativeLiftInterval?.high),
      share(arm.probabilityBest),
    ]
  }

  /// `experiment_lineage.csv`: one row per credited charge, in the readout's order.
  package static func lineageCSV(_ readouts: [Readout]) -> [UInt8] {
    LineageCSV.render(readouts, header: lineageHeader)
  }

  /// A share (0…1) with four decimals (`0.3080`); empty when unknown.
  package static func share(_ value: Double?) -> String {
    guard let value, value.isFinite else { return "" }
    return Currency.render(Int64((value * 10_000).rounded(.toNearestOrEven)), scale: 4)
  }

  /// A statistic in minor units, rounded half-even to a whole minor unit; empty when unknown.
  package static func minor(_ value: Double?) -> String {
    guard let value, value.isFinite, abs(value) < 9e18 else { return "" }
    return String(Int64(value.rounded(.toNearestOrEven)))
  }

  /// A p-value: four decimals (`0.6171`), or two significant digits below 0.0001 (`2.1e-07`).
  package static func pValue(_ p: Double) -> String {
    guard p.isFinite else { return "" }
    if p >= 0.0001 { return share(p) }
    return String(format: "%.1e", p)
  }
}
