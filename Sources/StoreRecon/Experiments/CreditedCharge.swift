/// One credited paid charge with its money worked out: fee, proceeds, refund and reporting amounts.
struct CreditedCharge {
  /// Index of the chain in the ledger, and the purchase.
  var chain: Int
  var purchase: StoreTransaction
  var currency: Currency
  /// The charge's report day.
  var day: CivilDate
  var grossMinor: Int64
  /// Money returned for this charge (0 when not refunded).
  var refundedMinor: Int64
  var refunded: Bool
  /// Proceeds after tax, fee and refund.
  var netProceedsMinor: Int64
  /// The same three amounts in the reporting currency; `nil` when the FX table has no rate.
  var reportingGross: Int64?
  var reportingRefunded: Int64?
  var reportingNet: Int64?

  /// Works out the money of `purchase` (a paid charge of `chain`).
  init(
    purchase: StoreTransaction, chain index: Int, of chain: Chain, chainFirstPaidAt: Instant,
    settings: ExperimentSettings, asOf t: Instant, day: CivilDate
  ) {
    self.chain = index
    self.purchase = purchase
    self.day = day
    currency = purchase.currency ?? settings.reportingCurrency
    grossMinor = purchase.amountMinor
    let type = ChainDerivation.type(of: purchase, catalog: settings.catalog)
    let bp = settings.fees.basisPoints(
      store: purchase.store, subscription: CreditedCharge.isSubscription(type), chargedAt: purchase.at,
      chainFirstPaidAt: chainFirstPaidAt)
    let proceeds = FeeSchedule.proceeds(
      grossMinor: grossMinor, taxMinor: purchase.taxMinor ?? 0, basisPoints: bp, rounding: settings.rounding
    ).proceeds
    let returned = CreditedCharge.refundedMinor(purchase, in: chain, asOf: t, rounding: settings.rounding)
    refunded = returned != nil
    refundedMinor = returned ?? 0
    if refundedMinor >= grossMinor {
      netProceedsMinor = 0
    } else if refundedMinor > 0 {
      netProceedsMinor =
        proceeds - settings.rounding.scale(proceeds, numerator: refundedMinor, denominator: grossMinor)
    } else {
      netProceedsMinor = proceeds
    }
    let fx = settings.fx
    reportingGross = fx.convert(grossMinor, from: currency, on: day, rounding: settings.rounding)
    reportingRefunded = fx.convert(refundedMinor, from: currency, on: day, rounding: settings.rounding)
    reportingNet = fx.convert(netProceedsMinor, from: currency, on: day, rounding: settings.rounding)
  }

  /// Subscriptions for fees and maturity: auto-renewable, or a type nobody stated.
  static func isSubscription(_ type: ProductType) -> Bool { type == .autoRenewable || type == .unknown }

  /// Money returned for `purchase` as of T, or `nil` when it was not refunded.
  ///
  /// App Store: the transaction's revocation (not a Family Sharing removal, not an upgrade), its
  /// prorated share where `REFUND_PRORATED`. Play: the sales report's `Refund` rows for the order
  /// (at most the charge); without one, a voided purchase for the order returns the whole charge.
  static func refundedMinor(
    _ purchase: StoreTransaction, in chain: Chain, asOf t: Instant, rounding: RoundingRule
  )
    -> Int64?
  {
    if chain.store == .play {
      let rows = chain.refunds.filter { $0.transactionId == purchase.transactionId }
      if !rows.isEmpty { return min(purchase.amountMinor, rows.reduce(Int64(0)) { $0 + $1.amountMinor }) }
      if chain.voids.contains(where: { $0.transactionId == purchase.transactionId }) {
        return purchase.amountMinor
      }
      return nil
    }
    guard let at = purchase.revokedAt, at <= t else { return nil }
    let type = purchase.revocationType?.uppercased()
    if type == "FAMILY_REVOKE" { return nil }
    if purchase.isUpgraded && type == nil && purchase.revocationReason == nil { return nil }
    if type == "REFUND_PRORATED", let milli = purchase.revocationPercentMilli {
      return rounding.scale(purchase.amountMinor, numerator: milli, denominator: 100_000)
    }
    return purchase.amountMinor
  }
}
