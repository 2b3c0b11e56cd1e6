import StoreReconCore

/// Stripe's itemized balance change report for the demo's web subscriptions
/// (docs/inputs.md#stripe-balance-reports): one CSV per UTC month, the two months before T's and T's
/// own up to T, one row per live charge, refund and lost dispute, with the fee `fees.stripe.bp` gives
/// (a lost dispute's with Stripe's dispute fee, ``disputeFee(_:at:)``) and a monthly payout per currency
/// once the month has ended.
///
/// Planted, `count` of each: a charge left out (`missing_in_report`), a charge the feed lacks
/// (`missing_in_feed`), a gross off (`amount_differs`), a fee off (`fee_differs`); and, as controls, a
/// fee one minor unit off (`match`), and a EUR charge booked in a USD balance at 1.1 USD per EUR, its
/// charge amount stated as Stripe's itemized report states it (`customer_facing_amount` and
/// `customer_facing_currency`), which ties out through that amount (`match`). The truth is worked out back from the rows as written, by the
/// rules of docs/tieout.md#stripe-charges-and-refunds, and checked against the plan.
struct DemoStripeBalance {
  /// The config's `fees.stripe.bp`.
  static let feeBp: Int64 = 290

  /// A balance transaction of the report, or a charge or refund of the feed.
  struct Row {
    var txn: String
    var at: Instant
    var currency: Currency
    var gross: Int64
    var fee: Int64
    /// `charge`, `refund` or `dispute`.
    var category: String
    /// The charge, refund or dispute id.
    var source: String
    var charge: String
    var intent: String
    var invoice: String
    var subscription: String
    var customer: String
    /// Of a clean web subscriber's charge without refunds: may carry a planted difference.
    var plantable = false
    /// Where the balance is kept in another currency than the charge's: the row's gross and fee in
    /// that currency (the report then states the charge's amount as `customer_facing_amount`).
    var balance: (currency: Currency, gross: Int64, fee: Int64)?
  }

  let t: Instant
  let seed: UInt64
  /// The report's months (first days), oldest first.
  let months: [CivilDate]
  /// The feed's live charges, refunds and lost disputes in the report's months, as the report would
  /// hold them unplanted.
  var rows: [Row] = []

  init(t: Instant, seed: UInt64) {
    self.t = t
    self.seed = seed
    let last = DemoCalendar.date(t.adding(ms: -1))
    var month = CivilDate(year: last.year, month: last.month, day: 1)
    var months = [month]
    for _ in 0..<2 {
      month = DemoStoreReports.previousMonth(month)
      months.insert(month, at: 0)
    }
    self.months = months
  }

  /// The fee `fees.stripe.bp` gives on a charge of `gross`.
  static func fee(_ gross: Int64) -> Int64 {
    FeeSchedule.proceeds(grossMinor: gross, taxMinor: 0, basisPoints: feeBp, rounding: .halfEven).fee
  }

  /// Stripe's dispute fee in US dollars (minor units) for Acme's US account.
  static let disputeFeeUSD: Int64 = 1500

  /// The dispute fee a lost dispute's balance transaction carries in `currency` (Stripe debits the
  /// disputed amount and the fee as one balance transaction): 15.00 USD, or its equivalent at the
  /// demo's FX rate of the dispute's month (``DemoFX``), rounded half-even to the currency's minor unit.
  static func disputeFee(_ currency: Currency, at: Instant) -> Int64 {
    let day = DemoCalendar.date(at)
    guard let rate = DemoFX.rate(currency, month: CivilDate(year: day.year, month: day.month, day: 1)),
      let digits = currency.minorUnits
    else { return disputeFeeUSD }
    // USD minor × 10^(scale + digits) / (mantissa × 10^2): the rate is USD per unit of `currency`.
    return RoundingRule.halfEven.scale(
      disputeFeeUSD, numerator: Pow10.int64(rate.scale + digits), denominator: rate.mantissa * 100)
  }

  /// Records the live charges, refunds and lost disputes of `sub` in the report's interval.
  mutating func record(_ sub: DemoStripeSubscription) {
    guard sub.live, let start = months.first?.startUTC else { return }
    func add(_ row: Row) {
      if row.at >= start && row.at <= t { rows.append(row) }
    }
    for invoice in sub.charges(at: t) {
      var charge = Row(
        txn: invoice.balanceTransaction, at: invoice.paidAt, currency: sub.currency, gross: invoice.amount,
        fee: DemoStripeBalance.fee(invoice.amount), category: "charge", source: invoice.charge,
        charge: invoice.charge, intent: invoice.intent, invoice: invoice.id, subscription: sub.id,
        customer: sub.customer)
      charge.plantable = sub.natural && invoice.refunds.isEmpty && invoice.dispute == nil
      add(charge)
      for r in invoice.refunds {
        var refund = charge
        refund.txn = r.balanceTransaction
        refund.at = r.at
        refund.gross = -r.amount
        refund.fee = 0
        refund.category = "refund"
        refund.source = r.id
        refund.plantable = false
        add(refund)
      }
      if let d = invoice.dispute, d.status == "lost" {
        var dispute = charge
        dispute.txn = d.balanceTransaction
        dispute.at = d.at
        dispute.gross = -invoice.amount
        dispute.fee = DemoStripeBalance.disputeFee(sub.currency, at: d.at)
        dispute.category = "dispute"
        dispute.source = d.id
        dispute.plantable = false
        add(dispute)
      }
    }
  }
}
