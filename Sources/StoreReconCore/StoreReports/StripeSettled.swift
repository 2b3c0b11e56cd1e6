/// Stripe's actual net per charge, from its balance report (docs/tieout.md#proceeds-in-revenuecsv):
/// a Stripe charge's proceeds are `settled` where the report has its balance transaction.
struct StripeSettled: Sendable {
  /// The report's rows of a charge or refund side, by charge id and by invoice id.
  var rows: [StripeBalanceRow] = []
  var byKey: [IdKey: [Int]] = [:]

  /// The categories that take money back from a charge (a refund, a dispute and their reversals).
  static let returned: Set<String> = ["refund", "refund_failure", "dispute", "dispute_reversal"]

  init(_ report: [StripeBalanceRow], feed: [StripeFeedLine] = []) {
    for row in report where row.category == "charge" || StripeSettled.returned.contains(row.category) {
      let n = rows.count
      rows.append(row)
      if !row.charge.isEmpty { byKey[IdKey(row.charge), default: []].append(n) }
      if !row.invoiceId.isEmpty && row.invoiceId != row.charge {
        byKey[IdKey(row.invoiceId), default: []].append(n)
      }
    }
    // A refund or dispute row that names its charge and not the invoice: under the charge's invoice too.
    var invoiceOf: [IdKey: String] = [:]
    for row in rows where !row.charge.isEmpty && !row.invoiceId.isEmpty {
      invoiceOf[IdKey(row.charge)] = row.invoiceId
    }
    // The feed knows a subscription charge's invoice where the report leaves invoice_id blank.
    for line in feed where line.kind == .charge && !line.invoiceId.isEmpty && !line.chargeId.isEmpty {
      let charge = IdKey(line.chargeId)
      if invoiceOf[charge] == nil { invoiceOf[charge] = line.invoiceId }
    }
    for (n, row) in rows.enumerated() where row.invoiceId.isEmpty {
      if let invoice = invoiceOf[IdKey(row.charge)] { byKey[IdKey(invoice), default: []].append(n) }
    }
  }

  var isEmpty: Bool { rows.isEmpty }

  /// The actual net of the charge `key` names (its charge id, or its invoice's id) in `currency`: the
  /// charge rows' (`refund: false`) or the returning rows' (`refund: true`, negative); `nil` where the
  /// report has no such row or one cannot be stated in `currency`.
  func net(_ key: String, currency: Currency, refund: Bool) -> Int64? {
    guard let found = byKey[IdKey(key)] else { return nil }
    var total: Int64 = 0
    var any = false
    var overflowed = false
    for n in found {
      let row = rows[n]
      guard (row.category == "charge") != refund else { continue }
      guard let (gross, fee) = row.amounts(in: currency) else { return nil }
      total.add(gross, overflow: &overflowed)
      total.subtract(fee, overflow: &overflowed)
      any = true
    }
    return any && !overflowed ? total : nil
  }
}
