/// Each Stripe charge and refund of the transaction feed against Stripe's balance report
/// (docs/tieout.md#stripe-charges-and-refunds): one ``TieOutOrder`` of store `stripe` per charge or
/// refund, named by its id.
///
/// The report covers the interval of its rows (Stripe writes no period): from its earliest to its
/// latest `created_utc`, and never past T. Feed lines in that interval, and report rows of the
/// `charge` and `refund` categories, are tied out; a month not over yet is tied out as far as its rows go.
package enum StripeTieOut {
  /// The report's `reporting_category` values the tie-out looks at.
  static let charge = "charge"
  static let refund = "refund"

  /// The tie-out rows of `feed` against `rows`, sorted by month, then id.
  package static func orders(
    feed: [StripeFeedLine], rows: [StripeBalanceRow], settings: TieOutSettings, asOf: Instant
  ) -> [TieOutOrder] {
    let dated = rows.filter { $0.created != Instant.distantPast && $0.created <= asOf }
    guard let first = dated.map(\.created).min(), let last = dated.map(\.created).max() else { return [] }
    var byCharge: [IdKey: [Int]] = [:]
    var byInvoice: [IdKey: [Int]] = [:]
    var byRefund: [IdKey: [Int]] = [:]
    for (i, row) in dated.enumerated() {
      switch row.category {
      case charge:
        if !row.charge.isEmpty { byCharge[IdKey(row.charge), default: []].append(i) }
        if !row.invoiceId.isEmpty { byInvoice[IdKey(row.invoiceId), default: []].append(i) }
      case refund:
        if !row.sourceId.isEmpty { byRefund[IdKey(row.sourceId), default: []].append(i) }
      default: break
      }
    }
    var used = [Bool](repeating: false, count: dated.count)
    var out: [TieOutOrder] = []
    for line in feed where line.live && line.at >= first && line.at <= last {
      let found: [Int]
      switch line.kind {
      case .charge:
        found = (line.chargeId.isEmpty ? byInvoice[IdKey(line.id)] : byCharge[IdKey(line.id)]) ?? []
      case .refund:
        found = byRefund[IdKey(line.id)] ?? []
      }
      for i in found { used[i] = true }
      out.append(judge(line, found.map { dated[$0] }, settings: settings))
    }
    for (i, row) in dated.enumerated()
    where !used[i] && (row.category == charge || row.category == refund) {
      out.append(missingInFeed(row))
    }
    return byMonthThenId(out)
  }

  /// `orders` sorted by month, then id (`String`'s order), equal ones in their given order: the ids
  /// are ordered by their packed keys (``IdOrder``), then spread over the months, so that no order is
  /// moved but once.
  static func byMonthThenId(_ orders: [TieOutOrder]) -> [TieOutOrder] {
    var byMonth: [CivilDate: [Int]] = [:]
    for i in IdOrder.order(orders.map(\.orderId)) { byMonth[orders[i].month, default: []].append(i) }
    return byMonth.keys.sorted().flatMap { byMonth[$0] ?? [] }.map { orders[$0] }
  }

  /// The first day of the UTC month of `instant`.
  static func month(_ instant: Instant) -> CivilDate {
    let day = StripeBalanceRow.utcDay(instant)
    return CivilDate(year: day.year, month: day.month, day: 1)
  }

  /// The fee the configured Stripe rate gives on a charge (none on a refund: Stripe keeps its fee).
  static func estimatedFee(_ line: StripeFeedLine, settings: TieOutSettings) -> Int64 {
    guard line.kind == .charge else { return 0 }
    let bp = settings.fees.basisPoints(
      store: .stripe, subscription: false, chargedAt: line.at, firstAnniversary: Instant(ms: Int64.max))
    return FeeSchedule.proceeds(
      grossMinor: line.amountMinor, taxMinor: 0, basisPoints: bp, rounding: settings.rounding
    ).fee
  }

  /// One feed line against the report rows found for it.
  static func judge(_ line: StripeFeedLine, _ found: [StripeBalanceRow], settings: TieOutSettings)
    -> TieOutOrder
  {
    var order = TieOutOrder(
      order: PlayOrderKey(line.id), month: month(line.at), productId: line.productId, currency: line.currency)
    order.store = .stripe
    order.salesItemMinor = line.amountMinor
    order.estimatedFeeMinor = estimatedFee(line, settings: settings)
    let c = line.currency
    let what = line.kind == .charge ? "charge" : "refund"
    guard !found.isEmpty else {
      order.status = .missingInReport
      order.detail =
        "the feed's \(what) of \(TieOutWording.money(line.amountMinor, c)) has no balance transaction in "
        + "the balance report, which covers its day"
      return order
    }
    var gross: Int64 = 0
    var fee: Int64 = 0
    var overflowed = false
    var rates: [String] = []
    for row in found {
      guard let (g, f) = row.amounts(in: c) else {
        order.status = .amountDiffers
        order.detail =
          "the balance transaction \(row.id) is in \(row.currency.code), the \(what) in \(c.code), and the "
          + "report states no exchange_rate or customer_facing_amount to convert it"
        return order
      }
      gross.add(g, overflow: &overflowed)
      fee.add(f, overflow: &overflowed)
      if row.currency != c { rates.append("\(row.id) \(TieOutWording.money(row.grossMinor, row.currency))") }
    }
    order.earningsChargeMinor = gross
    order.actualFeeMinor = fee
    let converted = rates.isEmpty ? "" : " (converted half-even from \(rates.joined(separator: ", ")))"
    if overflowed || gross != line.amountMinor {
      order.status = .amountDiffers
      order.detail =
        "the balance report's gross \(TieOutWording.money(gross, c))\(converted) against the feed's \(what) "
        + "\(TieOutWording.money(line.amountMinor, c)): \(TieOutWording.money(gross - line.amountMinor, c))"
      return order
    }
    if abs(fee - order.estimatedFeeMinor) > 1 {
      order.status = .feeDiffers
      order.detail =
        "Stripe kept \(TieOutWording.money(fee, c))\(converted); fees.stripe.bp says "
        + TieOutWording.money(order.estimatedFeeMinor, c)
      return order
    }
    order.status = .match
    order.detail = rates.isEmpty ? "" : "converted half-even from \(rates.joined(separator: ", "))"
    return order
  }

  /// A charge or refund the balance report has and the feed does not.
  static func missingInFeed(_ row: StripeBalanceRow) -> TieOutOrder {
    let id =
      row.category == charge
      ? (row.charge.isEmpty ? row.id : row.charge) : (row.sourceId.isEmpty ? row.id : row.sourceId)
    var order = TieOutOrder(
      order: PlayOrderKey(id), month: month(row.created), productId: "", currency: row.currency)
    order.store = .stripe
    order.earningsChargeMinor = row.grossMinor
    order.actualFeeMinor = row.feeMinor
    order.status = .missingInFeed
    order.detail =
      "the balance report has the \(row.category) (balance transaction \(row.id), "
      + "\(TieOutWording.money(row.grossMinor, row.currency))); stripe.objects have no such \(row.category)"
    return order
  }
}
