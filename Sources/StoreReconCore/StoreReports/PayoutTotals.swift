/// What a store's settlement report says it pays out, in one payout currency: Play earnings in the
/// merchant currency, Apple Financial reports in the Partner Share Currency.
package struct PayoutTotal: Sendable, Equatable {
  /// The report the total comes from (`play_earnings`, `apple_financial`).
  package var kind: StoreReportKind
  /// The payout currency.
  package var currency: Currency
  /// Σ `Amount (Merchant Currency)` (Play) or Σ `Extended Partner Share` (Apple), signed minor units.
  package var amountMinor: Int64
  /// The report rows summed.
  package var rows: Int

  /// Creates a total.
  package init(kind: StoreReportKind, currency: Currency, amountMinor: Int64, rows: Int) {
    self.kind = kind
    self.currency = currency
    self.amountMinor = amountMinor
    self.rows = rows
  }

  /// The payout totals of the settlement reports read (Play earnings: every row, fees and taxes
  /// included, as the payout nets them; Apple Financial: every detail row), sorted by kind then
  /// currency code. Reports that pay nothing out (Sales, Subscriber) give no total.
  package static func payoutTotals(_ rows: StoreReportRows) -> [PayoutTotal] {
    var sums: [Currency: (Int64, Int)] = [:]
    var out: [PayoutTotal] = []
    func flush(_ kind: StoreReportKind) {
      for currency in sums.keys.sorted() {
        let (amount, count) = sums[currency] ?? (0, 0)
        out.append(PayoutTotal(kind: kind, currency: currency, amountMinor: amount, rows: count))
      }
      sums = [:]
    }
    // Kinds in StoreReportKind's order (by raw value): apple_financial before play_earnings.
    for kind in StoreReportKind.allCases.sorted() {
      switch kind {
      case .appleFinancial:
        for r in rows.appleFinancial {
          let (amount, count) = sums[r.partnerShareCurrency] ?? (0, 0)
          sums[r.partnerShareCurrency] = (amount + r.extendedPartnerShareMinor, count + 1)
        }
      case .playEarnings:
        for r in rows.playEarnings {
          let (amount, count) = sums[r.merchantCurrency] ?? (0, 0)
          sums[r.merchantCurrency] = (amount + r.merchantAmountMinor, count + 1)
        }
      case .appleSales, .appleSubscriber:
        continue
      }
      flush(kind)
    }
    return out
  }
}
