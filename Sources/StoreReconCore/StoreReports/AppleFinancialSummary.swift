/// One region line of Apple's financial summary: the CSV a finance user downloads from Payments and
/// Financial Reports (`financial_report.csv`, one fiscal month, every region in one file), reference §2.5.
///
/// Amounts are in the region's currency, except ``proceedsMinor``, which is in ``bankCurrency``:
/// `Total Owed` converted at `Exchange Rate`.
package struct AppleFinancialSummaryRow: Sendable, Equatable {
  /// The fiscal month of the file's title line (`(July, 2015)`): year and month, day 1.
  package var month: CivilDate
  /// `Region (Currency)` (or `Country or Region (Currency)`) without its currency: `Americas`, `Japan`.
  package var region: String
  /// The currency in the region's parentheses: what the region's amounts are in.
  package var currency: Currency
  /// `Units Sold` (purchases only), where written.
  package var units: Int64?
  /// `Earned`: the region's partner share of the fiscal month.
  package var earnedMinor: Int64
  /// What the region carries from earlier months: `Beginning Balance` where the file has it, else
  /// `Pre-Tax Subtotal − Earned` (0 where neither is written).
  package var carriedMinor: Int64 = 0
  /// `Input Tax` (added to the payment), signed as written.
  package var inputTaxMinor: Int64 = 0
  /// `Adjustments`, signed as written.
  package var adjustmentsMinor: Int64 = 0
  /// `Withholding Tax` (negative: withheld), signed as written.
  package var withholdingTaxMinor: Int64 = 0
  /// `Total Owed`.
  package var totalOwedMinor: Int64
  /// `Exchange Rate` as written (a positive decimal, checked when read); empty where blank.
  package var exchangeRate: String = ""
  /// `Proceeds`, in ``bankCurrency``.
  package var proceedsMinor: Int64
  /// `Bank Account Currency`.
  package var bankCurrency: Currency
  /// Where the line was read.
  package var origin: Origin

  /// Creates a line.
  package init(
    month: CivilDate, region: String, currency: Currency, earnedMinor: Int64, totalOwedMinor: Int64,
    proceedsMinor: Int64, bankCurrency: Currency, origin: Origin
  ) {
    self.month = month
    self.region = region
    self.currency = currency
    self.earnedMinor = earnedMinor
    self.totalOwedMinor = totalOwedMinor
    self.proceedsMinor = proceedsMinor
    self.bankCurrency = bankCurrency
    self.origin = origin
  }
}

/// The payment line of Apple's financial summary: the amount sent to the bank (`"46.42" EUR` below
/// the region lines) and, where written, the `Paid to …` line naming the account.
package struct AppleFinancialPayment: Sendable, Equatable {
  /// The fiscal month of the file's title line.
  package var month: CivilDate
  /// The amount paid, in ``currency``.
  package var amountMinor: Int64
  /// The bank account currency.
  package var currency: Currency
  /// The `Paid to …` text as written (a masked account), or empty.
  package var paidTo: String = ""
  /// Where the amount was read.
  package var origin: Origin

  /// Creates a payment.
  package init(month: CivilDate, amountMinor: Int64, currency: Currency, origin: Origin) {
    self.month = month
    self.amountMinor = amountMinor
    self.currency = currency
    self.origin = origin
  }
}
