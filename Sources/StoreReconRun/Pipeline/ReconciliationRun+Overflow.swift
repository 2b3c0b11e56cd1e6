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
    if outcome.recognition.overflowed { return "revenue recognition" }
    if let finding = outcome.findings.first(where: \.overflowed) {
      return "the money at stake of \(finding.kind.rawValue)/\(finding.reason.rawValue) \(finding.chainKey)"
    }
    if let total = PayoutTotal.payoutTotals(reports).first(where: \.overflowed) {
      return "the \(total.kind.rawValue) payout total in \(total.currency.code)"
    }
    return magnitudeOverflow(outcome)
  }

  /// Whether the magnitudes of each table's money, per currency, add up within an `Int64`: then every
  /// subtotal and difference the reports and the summary form from them (a month of revenue, the money
  /// at stake per kind, `report − ledger`) fits as well. Names the first table that does not.
  static func magnitudeOverflow(_ outcome: Outcome) -> String? {
    var sums: [Currency: Int64] = [:]
    var overflowed = false
    func add(_ currency: Currency, _ values: Int64...) {
      var sum = sums[currency] ?? 0
      for v in values {
        guard v != .min else {
          overflowed = true
          continue
        }
        sum.add(Swift.abs(v), overflow: &overflowed)
      }
      sums[currency] = sum
    }
    func check(_ what: String) -> String? {
      defer {
        sums = [:]
        overflowed = false
      }
      return overflowed ? what : nil
    }
    for r in outcome.revenue {
      add(
        r.currency, r.grossMinor, r.taxMinor, r.refundsMinor, r.proceedsMinor, r.disputedMinor,
        r.disputeFeesMinor)
    }
    if let what = check("revenue") { return what }
    for (cell, a) in outcome.recognition.cells { add(cell.currency, a.billed, a.refunded, a.recognized) }
    if let what = check("revenue recognition") { return what }
    for f in outcome.findings { if let c = f.currency, let a = f.amountMinor { add(c, a) } }
    if let what = check("the findings' money at stake") { return what }
    for c in outcome.tieOut.cells {
      add(c.currency, c.reportGrossMinor, c.ledgerGrossMinor, c.reportUnits, c.ledgerUnits)
      add(c.proceedsCurrency, c.reportProceedsMinor, c.ledgerProceedsMinor)
    }
    for o in outcome.tieOut.orders {
      add(o.currency, o.salesItemMinor, o.earningsChargeMinor, o.estimatedFeeMinor, o.actualFeeMinor)
    }
    return check("the tie-out's totals")
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
