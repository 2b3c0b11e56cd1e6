import Testing

@testable import StoreReconCore

@Suite struct PayoutsTests {
  static let usd = Currency.named("USD")!
  static let eur = Currency.named("EUR")!
  static let jpy = Currency.named("JPY")!
  static let october = CivilDate(year: 2026, month: 10, day: 1)

  static func region(
    _ name: String, _ currency: Currency, earned: Int64, withholding: Int64 = 0, owed: Int64, rate: String,
    proceeds: Int64, line: Int32
  ) -> AppleFinancialSummaryRow {
    var r = AppleFinancialSummaryRow(
      month: october, region: name, currency: currency, earnedMinor: earned, totalOwedMinor: owed,
      proceedsMinor: proceeds, bankCurrency: eur, origin: Origin(file: 1, line: line))
    r.withholdingTaxMinor = withholding
    r.exchangeRate = rate
    return r
  }

  static func detail(
    _ currency: Currency, extended: Int64, end: CivilDate = CivilDate(year: 2026, month: 10, day: 31)
  )
    -> AppleFinancialRow
  {
    AppleFinancialRow(
      startDay: CivilDate(year: 2026, month: 9, day: 27), endDay: end, productId: "pro.monthly",
      productType: "IAY", quantity: 1,
      partnerShareMinor: extended.magnitude > 0 ? Int64(extended.magnitude) : 1,
      extendedPartnerShareMinor: extended, partnerShareCurrency: currency, isReturn: extended < 0,
      country: "US",
      customerPriceMinor: 999, customerCurrency: currency, origin: Origin(file: 2, line: 2))
  }

  /// A month whose summary agrees with its detail reports, Apple's rates and its payment.
  static func reports() -> StoreReportRows {
    var rows = StoreReportRows()
    rows.appleFinancialSummary = [
      region("Americas", usd, earned: 2520, owed: 2520, rate: "0.88452", proceeds: 2229, line: 4),
      region("Japan", jpy, earned: 179, withholding: -37, owed: 142, rate: "0.00817", proceeds: 116, line: 5),
    ]
    rows.applePayments = [
      AppleFinancialPayment(
        month: october, amountMinor: 2345, currency: eur, origin: Origin(file: 1, line: 7))
    ]
    rows.appleFinancial = [
      detail(usd, extended: 2700), detail(usd, extended: -180), detail(jpy, extended: 179),
    ]
    return rows
  }

  @Test func aMonthThatAddsUpHasNoDifference() {
    let lines = Payouts.lines(Self.reports())
    #expect(lines.map(\.status) == [.addsUp, .addsUp, .addsUp])
    #expect(lines.map(\.kind) == [.payout, .region, .region])
    let payment = lines[0]
    #expect(payment.payoutId == "2026-10 EUR")
    #expect(payment.payoutMinor == 2345)
    #expect(payment.sourceMinor == 2345)
    let japan = lines[2]
    #expect(japan.region == "Japan")
    #expect(japan.grossMinor == 179)
    #expect(japan.taxesMinor == -37)
    #expect(japan.netMinor == 142)
    #expect(japan.sourceMinor == 179)
    // Without an FX table into EUR the table's columns stay empty.
    #expect(japan.fxTableRate == "")
    #expect(japan.fxDifferenceMinor == nil)
  }

  @Test func eachPlantedDifferenceIsOneLine() {
    var rows = Self.reports()
    rows.appleFinancial.append(Self.detail(Self.usd, extended: 5))  // Earned 0.05 USD short of the rows
    rows.appleFinancialSummary[1].totalOwedMinor = 140  // Total Owed 2 JPY off its parts
    rows.appleFinancialSummary[1].proceedsMinor = 114
    rows.applePayments[0].amountMinor = 2340  // 0.03 EUR less than Σ Proceeds (22.29 + 1.14)
    let lines = Payouts.lines(rows)
    #expect(lines.map(\.status) == [.paymentDiffers, .earnedDiffers, .owedDiffers])
    #expect(lines.map(\.differenceMinor) == [-3, -5, -2])
    #expect(lines[1].sourceMinor == 2525)
    #expect(lines[1].detail.contains("is not Σ Extended Partner Share 25.25"))
  }

  @Test func proceedsOffApplesRateBeyondItsRoundingDiffer() {
    var rows = Self.reports()
    rows.appleFinancialSummary[0].proceedsMinor = 2231  // 25.20 × 0.88452 = 22.289904
    rows.applePayments[0].amountMinor = 2347
    let lines = Payouts.lines(rows)
    #expect(lines.map(\.status) == [.addsUp, .proceedsDiffers, .addsUp])
    #expect(lines[1].differenceMinor == 2)
  }

  @Test func aRateWrittenRoundedIsAllowedItsLastDigit() throws {
    // 1,000,000.00 USD at 0.88452 is 884,520.00 EUR; the rate Apple used may be up to 0.000005 away,
    // 5.00 EUR on this amount: 884,524.99 passes, 884,525.01 does not.
    let check = try #require(
      ProceedsCheck(owed: 100_000_000, from: Self.usd, rate: try DecimalRate.parse("0.88452"), to: Self.eur))
    #expect(check.expected == 88_452_000)
    #expect(check.allows(88_452_499))
    #expect(!check.allows(88_452_501))
    let yen = try #require(
      ProceedsCheck(owed: 142, from: Self.jpy, rate: try DecimalRate.parse("0.00817"), to: Self.eur))
    #expect(yen.expected == 116)
    #expect(yen.allows(116))
    #expect(!yen.allows(118))
  }

  @Test func theFXTableRateIsShownBesideApples() throws {
    let fx = FXRateBook(
      reporting: Self.eur,
      rows: [
        FXRate(
          date: CivilDate(year: 2026, month: 10, day: 1), currency: Self.usd,
          rate: try DecimalRate.parse("0.89"), origin: Origin(file: 3, line: 2))
      ])
    let lines = Payouts.lines(Self.reports(), fx: fx)
    let americas = lines[1]
    #expect(americas.fxTableRate == "0.89")
    #expect(americas.fxTablePayoutMinor == 2243)  // 25.20 × 0.89 = 22.428
    #expect(americas.fxDifferenceMinor == -14)
    #expect(americas.status == .addsUp)
  }

  @Test func aDetailCurrencyNoRegionNamesGetsItsOwnLine() {
    var rows = Self.reports()
    rows.appleFinancial.append(Self.detail(Self.eur, extended: 99))
    let lines = Payouts.lines(rows)
    let unnamed = lines.filter { $0.region == "(no summary line)" }
    #expect(unnamed.count == 1)
    #expect(unnamed.first?.status == .earnedDiffers)
    #expect(unnamed.first?.differenceMinor == -99)
  }

  @Test func playPayoutsArePerMonthAndMerchantCurrencyByTransactionType() {
    var rows = StoreReportRows()
    func earning(
      _ type: PlayEarningsRow.TransactionType, _ amount: Int64, order: String = "GPA.1111-2222-3333-44444"
    )
      -> PlayEarningsRow
    {
      PlayEarningsRow(
        month: Self.october, orderId: order, day: Self.october, type: type, productId: "pro", country: "DE",
        buyerCurrency: Self.eur, buyerAmountMinor: amount, merchantCurrency: Self.usd,
        merchantAmountMinor: amount,
        origin: Origin(file: 5, line: 2))
    }
    rows.playEarnings = [
      earning(.charge, 500), earning(.googleFee, -75), earning(.tax, 20), earning(.chargeRefund, -500),
      earning(.googleFeeRefund, 75), earning(.charge, 1000, order: "GPA.1111-2222-3333-55555"),
      earning(.googleFee, -150, order: "GPA.1111-2222-3333-55555"),
    ]
    let lines = Payouts.lines(rows)
    #expect(lines.count == 1)
    let l = lines[0]
    #expect(l.store == .play)
    #expect(l.payoutId == "2026-10 USD")
    #expect(
      [l.grossMinor, l.feesMinor, l.refundsMinor, l.feeRefundsMinor, l.taxesMinor, l.adjustmentsMinor]
        == [1500, -225, -500, 75, 20, nil])
    #expect(l.netMinor == 870)
    #expect(l.payoutMinor == 870)
    #expect(l.rows == 7)
    #expect(l.status == .addsUp)
  }
}
