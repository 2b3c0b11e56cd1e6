/// One credited paid charge with its money worked out: fee, proceeds, refund and reporting amounts.
struct ChargeMoney {
  /// Index of the chain in the ledger, its place in the lineage, and the record (its number and its
  /// place among the chain's purchases).
  var chain: Int32
  var position: Int32
  var record: Int32
  var purchaseIndex: Int32
  var at: Int64
  var currency: Currency
  /// The charge's report day.
  var day: CivilDate
  var grossMinor: Int64
  /// Money returned for this charge (0 when not refunded).
  var refundedMinor: Int64
  var refunded: Bool
  /// Proceeds after tax, fee and refund.
  var netProceedsMinor: Int64
  /// The proceeds are the settlement report's, not the fee schedule's estimate.
  var settled = false
  /// The same three amounts in the reporting currency; `nil` when the FX table has no rate.
  var reportingGross: Int64?
  var reportingRefunded: Int64?
  var reportingNet: Int64?

  /// Works out the money of purchase `k` (a position in the ledger's record order) of chain `c`.
  ///
  /// - Parameters:
  ///   - firstAnniversary: ``FeeSchedule/firstAnniversary(_:)`` of the chain's first paid charge.
  ///   - fx: the FX table's conversions (cached).
  init(
    _ k: Int, chain c: Int, position: Int, ledger s: borrowing LedgerView, firstAnniversary: Instant,
    subscription: Bool, fees: FeeSchedule, rounding: RoundingRule, reporting: Currency, asOf t: Int64,
    day: CivilDate, fx: inout FXDayCache, settledProceeds: SettledProceeds? = nil
  ) {
    let n = s.recordNumber(at: k)
    let purchase = s.record(number: n)
    let store = s.chain(c).store
    self.chain = Int32(c)
    self.position = Int32(position)
    self.record = Int32(truncatingIfNeeded: n)
    self.purchaseIndex = Int32(k - s.chain(c).start)
    self.at = purchase.at
    self.day = day
    currency = purchase.currencyValue ?? reporting
    grossMinor = purchase.amount
    let bp = fees.basisPoints(
      store: store, subscription: subscription, chargedAt: Instant(ms: purchase.at),
      firstAnniversary: firstAnniversary)
    var proceeds = FeeSchedule.proceeds(
      grossMinor: grossMinor, taxMinor: s.tax(n), basisPoints: bp, rounding: rounding
    ).proceeds
    if let settledProceeds, let value = settledProceeds.proceeds(n, purchase, s, store: store) {
      proceeds = value
      settled = true
    }
    let returned = ChargeMoney.refundedMinor(k, chain: c, ledger: s, asOf: t, rounding: rounding)
    refunded = returned != nil
    refundedMinor = returned ?? 0
    if refundedMinor >= grossMinor {
      netProceedsMinor = 0
    } else if refundedMinor > 0 {
      netProceedsMinor =
        proceeds - rounding.scale(proceeds, numerator: refundedMinor, denominator: grossMinor)
    } else {
      netProceedsMinor = proceeds
    }
    if let conversion = fx.conversion(currency, on: day) {
      reportingGross = conversion.apply(grossMinor, rounding: rounding)
      reportingRefunded = conversion.apply(refundedMinor, rounding: rounding)
      reportingNet = conversion.apply(netProceedsMinor, rounding: rounding)
    } else {
      reportingGross = nil
      reportingRefunded = nil
      reportingNet = nil
    }
  }

  /// Subscriptions for fees and maturity: auto-renewable, or a type nobody stated.
  static func isSubscription(_ type: ProductType) -> Bool { type == .autoRenewable || type == .unknown }

  /// Money returned for purchase `k` of chain `c` as of T, or `nil` when it was not refunded.
  ///
  /// App Store: the transaction's revocation (not a Family Sharing removal, not an upgrade), its
  /// prorated share where `REFUND_PRORATED`. Play: the sales report's `Refund` rows for the order
  /// (at most the charge); without one, a voided purchase for the order returns the whole charge.
  static func refundedMinor(
    _ k: Int, chain c: Int, ledger s: borrowing LedgerView, asOf t: Int64, rounding: RoundingRule
  )
    -> Int64?
  {
    let n = s.recordNumber(at: k)
    let purchase = s.record(number: n)
    if s.chain(c).store == .play {
      let id = purchase.tx
      var rows = false
      var total: Int64 = 0
      for q in s.refunds(c) where s.record(at: q).tx == id {
        rows = true
        total += s.record(at: q).amount
      }
      if rows { return min(purchase.amount, total) }
      for q in s.voids(c) where s.record(at: q).tx == id { return purchase.amount }
      return nil
    }
    guard let rare = s.storage.rareFields(n), let at = rare.revokedAt, at.ms <= t else { return nil }
    let type = rare.revocationTypeUpper
    if type == "FAMILY_REVOKE" { return nil }
    if purchase.isUpgraded && type == nil && rare.revocationReason == nil { return nil }
    if type == "REFUND_PRORATED", let milli = rare.revocationPercentMilli {
      return rounding.scale(purchase.amount, numerator: milli, denominator: 100_000)
    }
    return purchase.amount
  }
}
