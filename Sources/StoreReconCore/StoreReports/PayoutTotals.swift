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
  /// Whether the sum did not fit an `Int64` (the run stops with exit 65 rather than report it).
  package var overflowed = false

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
    var overflowed: Set<Currency> = []
    var out: [PayoutTotal] = []
    func flush(_ kind: StoreReportKind) {
      for currency in sums.keys.sorted() {
        let (amount, count) = sums[currency] ?? (0, 0)
        var total = PayoutTotal(kind: kind, currency: currency, amountMinor: amount, rows: count)
        total.overflowed = overflowed.contains(currency)
        out.append(total)
      }
      sums = [:]
      overflowed = []
    }
    // Kinds in StoreReportKind's order (by raw value): apple_financial before play_earnings.
    for kind in StoreReportKind.allCases.sorted() {
      switch kind {
      case .appleFinancial:
        for r in rows.appleFinancial {
          let (amount, count) = sums[r.partnerShareCurrency] ?? (0, 0)
          let (sum, o) = amount.addingReportingOverflow(r.extendedPartnerShareMinor)
          if o { overflowed.insert(r.partnerShareCurrency) }
          sums[r.partnerShareCurrency] = (sum, count + 1)
        }
      case .playEarnings:
        for r in rows.playEarnings {
          let (amount, count) = sums[r.merchantCurrency] ?? (0, 0)
          let (sum, o) = amount.addingReportingOverflow(r.merchantAmountMinor)
          if o { overflowed.insert(r.merchantCurrency) }
          sums[r.merchantCurrency] = (sum, count + 1)
        }
      case .appleSales, .appleSubscriber:
        continue
      }
      flush(kind)
    }
    return out
  }
}
