extension Payouts {
  /// Stripe: one payout per `automatic_payout_id` and balance currency of the balance report
  /// (docs/reports.md#payoutscsv): its charges' gross, Stripe's fees, refunds, disputes and other
  /// categories as adjustments, and the net they leave, which is the payout.
  ///
  /// A line does not add up where its rows' gross less fee is not their net (`net_differs`: a row's
  /// `net` is not `gross − fee`), or where the report also holds the payout itself (`reporting_category`
  /// `payout`, `source_id` the payout's id) and its amount is not Σ net of the rows (`payment_differs`).
  static func stripeLines(_ rows: [StripeBalanceRow]) -> [PayoutLine] {
    struct Key: Hashable {
      var payout: String
      var currency: Currency
    }
    var groups: [Key: [StripeBalanceRow]] = [:]
    var paid: [Key: Int64] = [:]
    for row in rows {
      if row.category == "payout", row.sourceId.hasPrefix("po_") {
        paid[Key(payout: row.sourceId, currency: row.currency), default: 0] &+= -row.grossMinor
        continue
      }
      guard !row.payoutId.isEmpty else { continue }
      groups[Key(payout: row.payoutId, currency: row.currency), default: []].append(row)
    }
    var out: [PayoutLine] = []
    for (key, members) in groups {
      if let line = stripeLine(key.payout, key.currency, members, paid: paid[key]) { out.append(line) }
    }
    return out
  }

  /// The categories summed apart: charges are gross, refunds their own part, fees Stripe's.
  static let stripeRefunds: Set<String> = ["refund", "refund_failure"]

  /// One Stripe payout's line; `nil` when a sum overflows.
  static func stripeLine(_ id: String, _ currency: Currency, _ rows: [StripeBalanceRow], paid: Int64?)
    -> PayoutLine?
  {
    var overflowed = false
    var gross: Int64?
    var refunds: Int64?
    var adjustments: Int64?
    var fees: Int64 = 0
    var net: Int64 = 0
    var disputes: Int64 = 0
    var offRows: [String] = []
    for row in rows {
      switch row.category {
      case "charge": gross = (gross ?? 0).adding(row.grossMinor, &overflowed)
      case _ where stripeRefunds.contains(row.category):
        refunds = (refunds ?? 0).adding(row.grossMinor, &overflowed)
      case "fee": fees.add(row.grossMinor, overflow: &overflowed)
      default:
        adjustments = (adjustments ?? 0).adding(row.grossMinor, &overflowed)
        if row.category.hasPrefix("dispute") { disputes.add(row.grossMinor, overflow: &overflowed) }
      }
      fees.subtract(row.feeMinor, overflow: &overflowed)
      net.add(row.netMinor, overflow: &overflowed)
      let (expected, o) = row.grossMinor.subtractingReportingOverflow(row.feeMinor)
      if o || expected != row.netMinor { offRows.append(row.id) }
    }
    guard !overflowed else { return nil }
    let day = rows.compactMap(\.payoutAt).max().map { StripeBalanceRow.utcDay($0).description } ?? ""
    var line = PayoutLine(
      store: .stripe, payoutId: id, period: day, kind: .payout, currency: currency, netMinor: net,
      payoutCurrency: currency, payoutMinor: paid ?? net, source: "stripe_balance")
    line.grossMinor = gross
    line.feesMinor = fees
    line.refundsMinor = refunds
    line.adjustmentsMinor = adjustments
    line.rows = rows.count
    line.detail =
      "Σ of the balance report's \(rows.count) balance transactions paid out in \(id), per reporting_category"
      + (disputes != 0 ? "; adjustments hold disputes \(currency.format(disputes)) \(currency.code)" : "")
    guard let parts = line.partsSum else { return nil }
    if parts != net {
      line.status = .netDiffers
      line.differenceMinor = net &- parts
      line.detail +=
        "; Σ net is \(currency.format(line.differenceMinor)) \(currency.code) off gross less fee: "
        + offRows.prefix(5).joined(separator: ", ")
        + (offRows.count > 5 ? " and \(offRows.count - 5) more" : "")
    } else if let paid, paid != net {
      line.status = .paymentDiffers
      line.differenceMinor = paid &- net
      line.detail +=
        "; the payout's own balance transaction pays \(currency.format(paid)) \(currency.code), "
        + "\(currency.format(line.differenceMinor)) \(currency.code) off Σ net of its transactions"
    }
    return line
  }
}

extension Int64 {
  /// `self + other`, noting an overflow.
  fileprivate func adding(_ other: Int64, _ overflow: inout Bool) -> Int64 {
    var sum = self
    sum.add(other, overflow: &overflow)
    return sum
  }
}
