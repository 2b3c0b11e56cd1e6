package import StoreReconCore

extension ReconciliationRun {
  /// What money sum of the outcome did not fit a 64-bit count of minor units, named; nil when every
  /// sum fits. The run stops with exit 65 on it rather than write a wrong total
  /// (docs/inputs.md#amounts-beyond-the-bound).
  package static func moneyOverflow(_ outcome: Outcome, reports: StoreReportRows) -> String? {
    if let cell = outcome.tieOut.overflow { return "the tie-out's \(cell)" }
    if let row = outcome.revenue.first(where: \.overflowed) {
      return "revenue of \(row.day) \(row.store.rawValue) \(row.productId) \(row.currency.code)"
    }
    if let finding = outcome.findings.first(where: \.overflowed) {
      return "the money at stake of \(finding.kind.rawValue)/\(finding.reason.rawValue) \(finding.chainKey)"
    }
    if let total = PayoutTotal.payoutTotals(reports).first(where: \.overflowed) {
      return "the \(total.kind.rawValue) payout total in \(total.currency.code)"
    }
    return nil
  }

  /// Throws the one-line exit-65 error when ``moneyOverflow(_:reports:)`` names a sum.
  static func checkMoneySums(_ outcome: Outcome, reports: StoreReportRows) throws(RunError) {
    guard let what = moneyOverflow(outcome, reports: reports) else { return }
    throw RunError(
      .dataError,
      "the sum of \(what) does not fit a 64-bit count of minor units: no report written "
        + "(docs/inputs.md#amounts-beyond-the-bound)")
  }
}
