/// What each payout is made of, from the stores' settlement reports: payouts.csv's lines
/// (docs/reports.md#payoutscsv).
///
/// - Google Play: one payout per earnings month and merchant currency, its rows summed per
///   `Transaction Type` (charges, Google fees, refunds, fee refunds, taxes, adjustments); the payout is
///   their sum, so the line adds up by construction.
/// - Apple: one payout per financial summary (fiscal month and bank account currency), then one line per
///   region: Earned tied to the detail Financial reports (Σ Extended Partner Share of the fiscal month,
///   the month of the middle of their period, and currency), Total Owed checked against its parts, Proceeds
///   against Total Owed at Apple's written exchange rate, and the payment against Σ Proceeds.
/// - Beside Apple's rate, the FX table's rate and what it would have paid, where the table converts into
///   the bank account currency.
package enum Payouts {
  /// The payout lines of `reports`, ordered by ``PayoutLine/ordered(_:_:)``; `fx` gives the FX table's
  /// rates (none without one).
  package static func lines(_ reports: StoreReportRows, fx: FXRateBook? = nil) -> [PayoutLine] {
    (playLines(reports.playEarnings) + appleLines(reports, fx: fx) + stripeLines(reports.stripeBalance))
      .sorted(by: PayoutLine.ordered)
  }

  // MARK: - Google Play

  /// One payout per earnings month and merchant currency.
  static func playLines(_ rows: [PlayEarningsRow]) -> [PayoutLine] {
    struct Key: Hashable {
      var month: ReportMonth
      var currency: Currency
    }
    var parts: [Key: [PlayEarningsRow.TransactionType: Int64]] = [:]
    var counts: [Key: Int] = [:]
    var overflowed: Set<Key> = []
    for r in rows {
      let key = Key(month: ReportMonth(r.month), currency: r.merchantCurrency)
      let (sum, o) = (parts[key]?[r.type] ?? 0).addingReportingOverflow(r.merchantAmountMinor)
      if o { overflowed.insert(key) }
      parts[key, default: [:]][r.type] = sum
      counts[key, default: 0] += 1
    }
    var out: [PayoutLine] = []
    for (key, byType) in parts where !overflowed.contains(key) {
      func part(_ types: PlayEarningsRow.TransactionType...) -> Int64? {
        let present = types.compactMap { byType[$0] }
        return present.isEmpty ? nil : present.reduce(0, &+)
      }
      var line = PayoutLine(
        store: .play, payoutId: "\(key.month) \(key.currency.code)", period: key.month.description,
        kind: .payout, currency: key.currency, netMinor: 0, payoutCurrency: key.currency, payoutMinor: 0,
        source: StoreReportKind.playEarnings.rawValue)
      line.grossMinor = part(.charge)
      line.feesMinor = part(.googleFee)
      line.refundsMinor = part(.chargeRefund)
      line.feeRefundsMinor = part(.googleFeeRefund)
      line.taxesMinor = part(.tax, .taxRefund)
      line.adjustmentsMinor = part(.adjustment)
      guard let net = line.partsSum else { continue }
      line.netMinor = net
      line.payoutMinor = net
      line.rows = counts[key] ?? 0
      line.detail =
        "Σ Amount (Merchant Currency) of the \(key.month) earnings report's \(line.rows) rows in \(key.currency.code), per Transaction Type"
      out.append(line)
    }
    return out
  }

  // MARK: - Apple

  /// A fiscal month and a currency.
  struct MonthCurrency: Hashable {
    var month: ReportMonth
    var currency: Currency
  }

  /// The Apple payouts and their regions.
  static func appleLines(_ reports: StoreReportRows, fx: FXRateBook?) -> [PayoutLine] {
    guard !reports.appleFinancialSummary.isEmpty || !reports.applePayments.isEmpty else { return [] }
    // The detail reports: Σ Extended Partner Share per fiscal month (of the End Date) and currency.
    var detail: [MonthCurrency: (sum: Int64, rows: Int)] = [:]
    var detailMonths: Set<ReportMonth> = []
    for r in reports.appleFinancial {
      let key = MonthCurrency(month: fiscalMonth(r), currency: r.partnerShareCurrency)
      let (sum, rows) = detail[key] ?? (0, 0)
      detail[key] = (sum &+ r.extendedPartnerShareMinor, rows + 1)
      detailMonths.insert(key.month)
    }
    // The payments: one per fiscal month and bank account currency.
    var payments: [MonthCurrency: [AppleFinancialSummaryRow]] = [:]
    for r in reports.appleFinancialSummary {
      payments[MonthCurrency(month: ReportMonth(r.month), currency: r.bankCurrency), default: []].append(r)
    }
    var stated: [MonthCurrency: AppleFinancialPayment] = [:]
    for p in reports.applePayments {
      stated[MonthCurrency(month: ReportMonth(p.month), currency: p.currency)] = p
      if payments[MonthCurrency(month: ReportMonth(p.month), currency: p.currency)] == nil {
        payments[MonthCurrency(month: ReportMonth(p.month), currency: p.currency)] = []
      }
    }
    // Currencies the summary lines of each month name; the month's first payment takes the others.
    var named: [ReportMonth: Set<Currency>] = [:]
    var firstPayment: [ReportMonth: Currency] = [:]
    for (payment, rows) in payments {
      named[payment.month, default: []].formUnion(rows.map(\.currency))
      if let c = firstPayment[payment.month], c <= payment.currency { continue }
      firstPayment[payment.month] = payment.currency
    }
    var out: [PayoutLine] = []
    for (payment, rows) in payments {
      var regions = rows.map { region($0, fx: fx) }
      tieEarned(&regions, payment: payment, detail: detail, detailMonths: detailMonths)
      if firstPayment[payment.month] == payment.currency {
        regions += unnamed(payment, detail: detail, named: named[payment.month] ?? [])
      }
      out += regions
      out.append(paymentLine(payment, regions: regions, stated: stated[payment]))
    }
    return out
  }

  /// The fiscal month a detail row belongs to: the calendar month of the middle day of its `Start Date`
  /// … `End Date` period (a fiscal month of four or five weeks lies mostly in the month it is named for,
  /// whichever edge days Apple's calendar gives it).
  static func fiscalMonth(_ r: AppleFinancialRow) -> ReportMonth {
    ReportMonth(CivilDate(daysSinceEpoch: (r.startDay.daysSinceEpoch + r.endDay.daysSinceEpoch) / 2))
  }

  /// The id of an Apple payment: its fiscal month and bank account currency.
  static func paymentId(_ payment: MonthCurrency) -> String { "\(payment.month) \(payment.currency.code)" }

  /// One region line: its parts, Total Owed against them, Proceeds against Total Owed at Apple's rate,
  /// and the FX table's rate beside Apple's.
  static func region(_ r: AppleFinancialSummaryRow, fx: FXRateBook?) -> PayoutLine {
    let month = ReportMonth(r.month)
    var line = PayoutLine(
      store: .appStore, payoutId: paymentId(MonthCurrency(month: month, currency: r.bankCurrency)),
      period: month.description, kind: .region, currency: r.currency, netMinor: r.totalOwedMinor,
      payoutCurrency: r.bankCurrency, payoutMinor: r.proceedsMinor, source: "apple_financial_summary")
    line.region = r.region
    line.grossMinor = r.earnedMinor
    line.taxesMinor = r.inputTaxMinor &+ r.withholdingTaxMinor
    line.adjustmentsMinor = r.adjustmentsMinor
    line.carriedMinor = r.carriedMinor
    line.exchangeRate = r.exchangeRate
    line.rows = 1
    var words: [String] = []
    if r.withholdingTaxMinor != 0 || r.inputTaxMinor != 0 {
      words.append(
        "taxes: input tax \(r.currency.format(r.inputTaxMinor)), withholding tax \(r.currency.format(r.withholdingTaxMinor))"
      )
    }
    if let sum = line.partsSum, sum != r.totalOwedMinor {
      line.status = .owedDiffers
      line.differenceMinor = r.totalOwedMinor &- sum
      words.append(
        "Total Owed \(r.currency.format(r.totalOwedMinor)) is not Earned + carried + taxes + adjustments \(r.currency.format(sum)): \(r.currency.format(line.differenceMinor)) \(r.currency.code) unexplained"
      )
    }
    let rate = rateOf(r)
    if let rate,
      let check = ProceedsCheck(owed: r.totalOwedMinor, from: r.currency, rate: rate, to: r.bankCurrency)
    {
      let difference = r.proceedsMinor &- check.expected
      if !check.allows(r.proceedsMinor) {
        if line.status == .addsUp {
          line.status = .proceedsDiffers
          line.differenceMinor = difference
        }
        words.append(
          "Proceeds \(r.bankCurrency.format(r.proceedsMinor)) \(r.bankCurrency.code) are not Total Owed × \(rate) = \(r.bankCurrency.format(check.expected)) (half-even), beyond the rate's rounding to its written digits: \(r.bankCurrency.format(difference)) \(r.bankCurrency.code)"
        )
      }
    } else if r.currency != r.bankCurrency {
      words.append("no exchange rate written: Proceeds not checked")
    }
    fxTable(&line, r, fx: fx)
    line.detail = words.joined(separator: "; ")
    return line
  }

  /// Apple's rate: as written, or 1 where the region is paid in its own currency and none is written.
  static func rateOf(_ r: AppleFinancialSummaryRow) -> DecimalRate? {
    if !r.exchangeRate.isEmpty, let rate = try? DecimalRate.parse(r.exchangeRate) { return rate }
    return r.currency == r.bankCurrency ? .one : nil
  }

  /// The FX table's rate and payout beside Apple's: where the region is paid in its own currency (rate
  /// 1), or the table converts into the bank account currency, at the rate of the fiscal month's last day.
  static func fxTable(_ line: inout PayoutLine, _ r: AppleFinancialSummaryRow, fx: FXRateBook?) {
    let lastDay = CivilDate(
      year: r.month.year, month: r.month.month,
      day: CivilDate.daysIn(year: r.month.year, month: r.month.month))
    let table: (rate: DecimalRate, payout: Int64)?
    if r.currency == r.bankCurrency {
      table = (.one, r.totalOwedMinor)
    } else if let fx, fx.reporting == r.bankCurrency, let rate = fx.rate(r.currency, on: lastDay),
      let payout = fx.convert(r.totalOwedMinor, from: r.currency, on: lastDay, rounding: .halfEven)
    {
      table = (rate, payout)
    } else {
      table = nil
    }
    guard let table else { return }
    line.fxTableRate = table.rate.description
    line.fxTablePayoutMinor = table.payout
    line.fxDifferenceMinor = r.proceedsMinor &- table.payout
  }

  /// Ties each fiscal month and currency's Σ Earned to the detail reports (where any detail report of
  /// that month was read): the first region of the currency carries the difference; a currency only the
  /// detail reports have gets a line of its own (``unnamed(_:detail:named:)``).
  static func tieEarned(
    _ regions: inout [PayoutLine], payment: MonthCurrency, detail: [MonthCurrency: (sum: Int64, rows: Int)],
    detailMonths: Set<ReportMonth>
  ) {
    guard detailMonths.contains(payment.month) else {
      for i in regions.indices {
        regions[i].detail = joined(
          regions[i].detail, "no Financial report detail of \(payment.month) read: Earned not tied to rows")
      }
      return
    }
    regions.sort { $0.region < $1.region }
    var byCurrency: [Currency: [Int]] = [:]
    for (i, r) in regions.enumerated() { byCurrency[r.currency, default: []].append(i) }
    for (currency, indexes) in byCurrency {
      let earned = indexes.reduce(Int64(0)) { $0 &+ (regions[$1].grossMinor ?? 0) }
      let tied = detail[MonthCurrency(month: payment.month, currency: currency)] ?? (0, 0)
      let first = indexes[0]
      regions[first].sourceMinor = tied.sum
      let together =
        indexes.count > 1
        ? " (the regions in \(currency.code) together: \(indexes.map { regions[$0].region }.joined(separator: ", ")))"
        : ""
      if tied.sum == earned {
        regions[first].detail = joined(
          regions[first].detail,
          "Earned\(together) = Σ Extended Partner Share of \(tied.rows) detail rows in \(currency.code)")
        continue
      }
      let difference = earned &- tied.sum
      regions[first].detail = joined(
        "Earned\(together) \(currency.format(earned)) is not Σ Extended Partner Share \(currency.format(tied.sum)) of the \(tied.rows) detail rows of \(payment.month) in \(currency.code): \(currency.format(difference)) \(currency.code) more in the summary",
        regions[first].detail)
      regions[first].status = .earnedDiffers
      regions[first].differenceMinor = difference
    }
  }

  /// Lines for the detail reports' currencies of the payment's month that no summary line names.
  static func unnamed(
    _ payment: MonthCurrency, detail: [MonthCurrency: (sum: Int64, rows: Int)], named: Set<Currency>
  ) -> [PayoutLine] {
    var out: [PayoutLine] = []
    for (key, tied) in detail where key.month == payment.month && !named.contains(key.currency) {
      var line = PayoutLine(
        store: .appStore, payoutId: paymentId(payment), period: payment.month.description, kind: .region,
        currency: key.currency, netMinor: 0, payoutCurrency: payment.currency, payoutMinor: 0,
        source: "apple_financial_summary")
      line.region = "(no summary line)"
      line.sourceMinor = tied.sum
      line.status = tied.sum == 0 ? .addsUp : .earnedDiffers
      line.differenceMinor = 0 &- tied.sum
      line.detail =
        "the detail reports have \(key.currency.format(tied.sum)) \(key.currency.code) in \(tied.rows) rows of \(payment.month) that no region line of the summary names"
      out.append(line)
    }
    return out
  }

  /// The payment line: Σ Proceeds of its regions against the amount the file says was paid.
  static func paymentLine(_ payment: MonthCurrency, regions: [PayoutLine], stated: AppleFinancialPayment?)
    -> PayoutLine
  {
    let sum = regions.reduce(Int64(0)) { $0 &+ $1.payoutMinor }
    let c = payment.currency
    var line = PayoutLine(
      store: .appStore, payoutId: paymentId(payment), period: payment.month.description, kind: .payout,
      currency: c, netMinor: sum, payoutCurrency: c, payoutMinor: stated?.amountMinor ?? sum,
      source: "apple_financial_summary")
    line.sourceMinor = sum
    line.rows = regions.reduce(0) { $0 + $1.rows } + (stated == nil ? 0 : 1)
    let fx = regions.compactMap(\.fxDifferenceMinor)
    if fx.count == regions.count, !regions.isEmpty {
      line.fxDifferenceMinor = fx.reduce(0, &+)
    }
    let differing = regions.filter { $0.status != .addsUp }.count
    var words = ["Σ Proceeds of \(regions.count) regions \(c.format(sum)) \(c.code)"]
    if let stated {
      words.append(
        "paid \(c.format(stated.amountMinor)) \(c.code)"
          + (stated.paidTo.isEmpty ? "" : " (\(stated.paidTo))"))
      if stated.amountMinor != sum {
        line.status = .paymentDiffers
        line.differenceMinor = stated.amountMinor &- sum
        words.append("the payment is \(c.format(line.differenceMinor)) \(c.code) off Σ Proceeds")
      }
    } else {
      words.append("no payment line in the summary: an estimate until Apple pays")
    }
    if differing > 0 { words.append("\(differing) of its regions do not add up") }
    line.detail = words.joined(separator: "; ")
    return line
  }

  static func joined(_ a: String, _ b: String) -> String {
    a.isEmpty ? b : b.isEmpty ? a : a + "; " + b
  }
}
