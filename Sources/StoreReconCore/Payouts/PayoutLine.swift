/// One line of payouts.csv: what one payout (or one region of an Apple payment) is made of, from the
/// stores' own settlement reports, and whether it adds up (docs/reports.md#payoutscsv).
///
/// The amounts ``grossMinor`` … ``netMinor`` are in ``currency``; ``payoutMinor`` is in
/// ``payoutCurrency`` (the bank's). A part a store does not state apart is `nil` (an empty cell), never a
/// made-up 0. A line adds up when `gross + fees + refunds + fee refunds + taxes + adjustments + carried
/// = net`, its net converts to its payout at the store's rate (as the store rounds), and its source
/// rows sum to what the store states; otherwise its ``status`` names what does not, and
/// ``differenceMinor`` by how much.
package struct PayoutLine: Sendable, Equatable {
  /// What a line stands for.
  package enum Kind: String, Sendable, Comparable {
    /// A payout: the money one report (Play earnings month, Apple payment, Stripe payout) sends to the bank.
    case payout
    /// One region of an Apple payment (a line of the financial summary).
    case region

    package static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// Whether the line adds up, or what does not.
  package enum Status: String, Sendable, CaseIterable {
    /// Every check holds.
    case addsUp = "adds_up"
    /// Apple: the detail Financial reports' Σ Extended Partner Share of the fiscal month and currency is
    /// not the summary's Earned (``sourceMinor`` is the detail's sum).
    case earnedDiffers = "earned_differs"
    /// Apple: Earned + carried + input tax + adjustments + withholding tax is not Total Owed.
    case owedDiffers = "owed_differs"
    /// Apple: Total Owed at the written exchange rate is not Proceeds, even allowing for the rate's
    /// rounding to its written digits and for rounding to the bank currency's minor unit.
    case proceedsDiffers = "proceeds_differs"
    /// Apple: the payment is not Σ Proceeds of the regions (``sourceMinor``).
    case paymentDiffers = "payment_differs"
    /// Stripe: the payout's balance transactions' gross less fee is not their net.
    case netDiffers = "net_differs"
  }

  /// The store paid from.
  package var store: Store
  /// The payout's key: `2026-10 USD` (Play earnings month and merchant currency, Apple fiscal month and
  /// bank currency); a Stripe payout's id.
  package var payoutId: String
  /// The period paid: the earnings or fiscal month (`2026-10`), a Stripe payout's arrival day.
  package var period: String
  /// Payout or region.
  package var kind: Kind
  /// The Apple region (`Americas`, `Japan`); empty on payouts.
  package var region: String = ""
  /// The currency of the parts and ``netMinor``.
  package var currency: Currency
  /// Sales: Play Σ `Charge`; Apple the region's `Earned` (partner share, net of returns).
  package var grossMinor: Int64?
  /// The store's fees (negative): Play Σ `Google fee`.
  package var feesMinor: Int64?
  /// Refunds (negative): Play Σ `Charge refund`.
  package var refundsMinor: Int64?
  /// Fees the store gave back with refunds (positive): Play Σ `Google fee refund`.
  package var feeRefundsMinor: Int64?
  /// Taxes: Play Σ `Tax` and `Tax refund`; Apple `Input Tax` + `Withholding Tax`.
  package var taxesMinor: Int64?
  /// Adjustments: Play Σ `Adjustment`; Apple `Adjustments`.
  package var adjustmentsMinor: Int64?
  /// Apple: carried from earlier months (`Beginning Balance`, or `Pre-Tax Subtotal − Earned`).
  package var carriedMinor: Int64?
  /// What is owed in ``currency``: Play the payout; Apple `Total Owed`; a payment Σ Proceeds.
  package var netMinor: Int64
  /// The rate the store converted ``netMinor`` with, as written (empty where none was needed or written).
  package var exchangeRate: String = ""
  /// The currency paid in (the bank account's).
  package var payoutCurrency: Currency
  /// What the store pays, in ``payoutCurrency``.
  package var payoutMinor: Int64
  /// The FX table's rate for the same conversion (empty where the table has none).
  package var fxTableRate: String = ""
  /// ``netMinor`` at ``fxTableRate``, half-even, in ``payoutCurrency``.
  package var fxTablePayoutMinor: Int64?
  /// What the store's rate gave against the FX table's: ``payoutMinor`` − ``fxTablePayoutMinor``.
  package var fxDifferenceMinor: Int64?
  /// The source rows' sum the line is tied to: Apple regions the detail reports' Σ Extended Partner
  /// Share; Apple payments Σ Proceeds; empty where nothing was tied.
  package var sourceMinor: Int64?
  /// What does not add up, signed (0 when the line adds up); in ``payoutCurrency`` for
  /// `proceeds_differs` and `payment_differs`, in ``currency`` otherwise.
  package var differenceMinor: Int64 = 0
  /// Whether it adds up.
  package var status: Status = .addsUp
  /// The line in words: what was summed and, for a difference, where it lies.
  package var detail: String = ""
  /// The report the line comes from (`apple_financial_summary`, `play_earnings`).
  package var source: String
  /// The report rows behind the line.
  package var rows: Int = 0

  /// Creates a line.
  package init(
    store: Store, payoutId: String, period: String, kind: Kind, currency: Currency, netMinor: Int64,
    payoutCurrency: Currency, payoutMinor: Int64, source: String
  ) {
    self.store = store
    self.payoutId = payoutId
    self.period = period
    self.kind = kind
    self.currency = currency
    self.netMinor = netMinor
    self.payoutCurrency = payoutCurrency
    self.payoutMinor = payoutMinor
    self.source = source
  }

  /// Σ of the parts that are stated (gross, fees, refunds, fee refunds, taxes, adjustments, carried);
  /// `nil` on overflow.
  package var partsSum: Int64? {
    var sum: Int64 = 0
    for part in [
      grossMinor, feesMinor, refundsMinor, feeRefundsMinor, taxesMinor, adjustmentsMinor, carriedMinor,
    ] {
      guard let part else { continue }
      let (s, o) = sum.addingReportingOverflow(part)
      if o { return nil }
      sum = s
    }
    return sum
  }

  /// Sorts by store, period, payout, payouts before their regions, then region.
  package static func ordered(_ a: PayoutLine, _ b: PayoutLine) -> Bool {
    // The currency last: a Stripe payout id (and a Play month) has a line per currency.
    (a.store, a.period, a.payoutId, a.kind, a.region, a.currency.code)
      < (b.store, b.period, b.payoutId, b.kind, b.region, b.currency.code)
  }
}
