import StoreReconCore

/// The demo's month-end: Apple's financial summary of the last earnings month (the demo's fiscal month is
/// that calendar month), with planted payout differences.
///
/// Earned per currency is what the demo's App Store charges of the month would pay: per unit (price −
/// the country's included tax) × 70 %, half-even, as the Summary Sales rows state it, less the month's
/// refunds. One region per currency Apple pays in (`Americas (USD)`, `Euro-Zone (EUR)`, …; the demo's
/// KWD sales, which Apple books in another region's currency, are left out). Japan withholds 10 % tax.
/// Apple's rate is the FX table's rate of the month less 0.5 %, written with 5 decimals; Proceeds are Total
/// Owed at it, half-even; the bank account is in USD. No detail Financial reports are written: they would
/// settle the App Store charges' proceeds and change the price-test readout, so Earned is not tied here.
///
/// Planted (as far as a small world's currencies allow): the first non-USD region's Total Owed 1 major unit over its parts (`owed_differs`), the
/// second's Proceeds 1 % + 0.50 USD over Total Owed at the rate (`proceeds_differs`), and the payment
/// 0.07 USD under Σ Proceeds (`payment_differs`).
extension DemoStoreReports {
  /// The regions of the summary, by the currency Apple reports them in.
  static let appleRegions: [String: String] = [
    "USD": "Americas", "EUR": "Euro-Zone", "GBP": "United Kingdom", "JPY": "Japan", "CHF": "Switzerland",
    "BRL": "Brazil",
  ]

  /// `exports/apple/financial/financial_report_YYYYMM.csv`.
  static func summaryPath(_ month: CivilDate) -> String {
    "exports/apple/financial/financial_report_\(month.year)\(DemoIdentifiers.padded(Int64(month.month), 2)).csv"
  }

  /// The fiscal month of the demo's summary: the last earnings month.
  var fiscalMonth: CivilDate { playMonths[playMonths.count - 1] }

  /// Apple's proceeds per unit of a price: (price − included tax) × 70 %, half-even.
  static func appleUnitProceeds(_ unitPrice: Int64, _ country: DemoCountry) -> Int64 {
    let net =
      country.taxIncluded
      ? RoundingRule.halfEven.scale(
        unitPrice, numerator: 10_000, denominator: 10_000 + country.taxBasisPoints)
      : unitPrice
    return RoundingRule.halfEven.scale(net, numerator: 7000, denominator: 10_000)
  }

  /// Records one App Store period's charge and refund that fall in the fiscal month (UTC).
  func recordFiscal(_ chain: DemoChain, _ p: DemoPeriod) {
    guard p.priceMinor > 0 else { return }
    let quantity = Int64(p.quantity)
    let unit = DemoStoreReports.appleUnitProceeds(p.priceMinor / quantity, chain.country)
    let code = chain.country.currency.code
    func inMonth(_ at: Instant) -> Bool {
      let d = DemoCalendar.date(at)
      return d.year == fiscalMonth.year && d.month == fiscalMonth.month
    }
    if inMonth(p.start) {
      appleEarned[code, default: (0, 0)].units += quantity
      appleEarned[code, default: (0, 0)].earned += quantity * unit
    }
    if let r = p.revocation, r.kind != .familyRevoke, !p.isUpgraded, r.isEffective(at: t), inMonth(r.at) {
      appleEarned[code, default: (0, 0)].earned -= quantity * unit
    }
  }

  /// Writes the summary; returns its path and the planted differences.
  func writeAppleSummary(into directory: String) throws -> (path: String, planted: [PlantedPayout]) {
    let month = fiscalMonth
    let codes = appleEarned.keys.filter {
      DemoStoreReports.appleRegions[$0] != nil && (appleEarned[$0]?.earned ?? 0) != 0
    }.sorted()
    let others = codes.filter { $0 != "USD" }
    guard let usd = Currency.named("USD") else { throw DemoError.inconsistentTruth("no USD") }
    let payoutId = "\(ReportMonth(month)) USD"
    // A small world may have fewer currencies: it plants what it can.
    let owedPlant = others.first ?? ""
    let proceedsPlant = others.count > 1 ? others[1] : ""
    var lines = [
      "\"iTunes Connect - Payments and Financial Reports\t(\(DemoStoreReports.monthName(month.month)), \(month.year))\",,,,,,,,,,,,",
      ",,,,,,,,,,,,",
      "Region (Currency),Units Sold,Earned,Pre-Tax Subtotal,Input Tax,Adjustments,Withholding Tax,Total Owed,Exchange Rate,Proceeds,Bank Account Currency,",
    ]
    var total: Int64 = 0
    var planted: [PlantedPayout] = []
    for code in codes {
      guard let currency = Currency.named(code), let digits = currency.minorUnits,
        let region = DemoStoreReports.appleRegions[code], let sums = appleEarned[code]
      else { continue }
      let withholding =
        code == "JPY" ? -RoundingRule.halfEven.scale(sums.earned, numerator: 1000, denominator: 10_000) : 0
      var owed = sums.earned + withholding
      if code == owedPlant {
        owed += Pow10.int64(digits)
        planted.append(PlantedPayout(payoutId: payoutId, region: region, status: .owedDiffers))
      }
      // Apple's rate: the table's less 0.5 %, 5 decimals, half-even.
      let rate: Int64
      if code == "USD" {
        rate = 100_000
      } else {
        guard let table = DemoFX.rate(currency, month: month) else { continue }
        rate = RoundingRule.halfEven.scale(
          table.mantissa * 995, numerator: 100_000, denominator: 1000 * Pow10.int64(table.scale))
      }
      var proceeds = RoundingRule.halfEven.scale(
        owed, numerator: rate * 100, denominator: Pow10.int64(digits + 5))
      if code == proceedsPlant {
        proceeds += proceeds / 100 + 50
        planted.append(PlantedPayout(payoutId: payoutId, region: region, status: .proceedsDiffers))
      }
      total += proceeds
      let cells = [
        String(sums.units), currency.format(sums.earned), currency.format(sums.earned), "0", "0",
        currency.format(withholding), currency.format(owed), Currency.render(rate, scale: 5),
        usd.format(proceeds), "USD",
      ]
      lines.append("\(region) (\(code))," + cells.map { "\"\($0)\"" }.joined(separator: ",") + ",")
    }
    if !codes.isEmpty {
      planted.append(PlantedPayout(payoutId: payoutId, region: "", status: .paymentDiffers))
      lines += [
        ",,,,,,,,,,,,", ",,,,,,,,,,\"\(usd.format(total - 7))\" USD,,",
        ",,,,,,,,,,Paid to ACME BANK -****4242,,",
      ]
    }
    let path = DemoStoreReports.summaryPath(month)
    let writer = try DemoFileWriter(directory: directory, relativePath: path)
    try writer.write(bytes: (lines.joined(separator: "\n") + "\n").utf8)
    try writer.close()
    return (path, planted.sorted())
  }

  static func monthName(_ month: Int) -> String {
    [
      "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
      "November", "December",
    ][month - 1]
  }
}
