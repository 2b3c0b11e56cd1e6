import StoreReconPlatform

/// The proceeds of the revenue table's rows, from the most settled source that covers each charge.
///
/// A charge's proceeds are **settled** where a Play earnings report has its order (every row of the
/// order: Charge, Google fee, Tax; a refund's: the refund rows) or an Apple Financial report has its
/// (fiscal month, product, country, customer price) with one Partner Share in the customer's currency;
/// **reported** where an Apple Summary Sales report has its (day, product, country, customer price)
/// with one Developer Proceeds in the customer's currency; else **estimated** by the fee schedule on
/// the price before tax. A row's source is the least settled of its charges'; a refund takes back the
/// proceeds of its charge (an Apple prorated refund its share).
package enum RevenueProceeds {
  /// Apple per-unit look-up key: report day (index into the settings' days), product, country,
  /// currency and customer price per unit.
  struct AppleKey: Hashable, Sendable {
    var day: Int
    var product: String
    var country: String
    var currency: Currency
    var unitPrice: Int64
  }

  /// Per-unit proceeds by key; `nil` where the report states more than one for the key.
  typealias PerUnit = [AppleKey: Int64?]

  /// `rows` with ``RevenueRow/proceedsMinor`` and ``RevenueRow/proceedsSource`` set.
  ///
  /// - Parameters:
  ///   - lookups: the reports' look-ups already built (``SettledProceeds``), else built here.
  package static func apply(
    _ rows: [RevenueRow], ledger: Ledger, reports: StoreReportRows, settings: TieOutSettings,
    lookups: SettledProceeds? = nil, dayOf: (Instant) -> CivilDate
  ) -> [RevenueRow] {
    let book = lookups?.book ?? Book(reports: reports, settings: settings)
    let s = ledger.storage
    let count = s.chains.count
    let parts = Parallel.balancedParts(for: count, minimum: 20_000, perCore: 3)
    let results = LedgerView.with(s) { view in
      Parallel.map(parts: parts) { part -> RevenueSumsByKey in
        var out = RevenueSumsByKey()
        for c in Parallel.range(part, of: parts, count: count) {
          add(chain: c, view, book: book, asOf: ledger.asOf.ms, dayOf: dayOf, to: &out)
        }
        return out
      }
    }
    var total = RevenueSumsByKey()
    for part in results {
      for e in part.entries {
        total.add(e.day, Int(e.slot), e.product, e.currency) { sums in
          sums.proceedsMinor.add(e.sums.proceedsMinor, overflow: &sums.overflowed)
          if e.sums.overflowed { sums.overflowed = true }
          sums.proceedsRank = max(sums.proceedsRank, e.sums.proceedsRank)
        }
      }
    }
    var names: [String: UInt32] = [:]
    for (i, name) in s.products.names.enumerated() where names[name] == nil { names[name] = UInt32(i) }
    return rows.map { row in
      var row = row
      guard let name = names[row.productId], let currency = UInt16(exactly: row.currency.tableIndex + 1),
        let sums = total.find(row.day, LedgerStorage.slot(row.store), name, currency)
      else { return row }
      row.proceedsMinor = sums.proceedsMinor
      if sums.overflowed { row.overflowed = true }
      row.proceedsSource = ProceedsSource.allCases[Int(sums.proceedsRank)]
      return row
    }
  }

  /// The reports' proceeds, by what a charge can be looked up by.
  struct Book: Sendable {
    let settings: TieOutSettings
    var appleSettled: PerUnit = [:]
    var appleReported: PerUnit = [:]
    /// Play order id → (Σ charge-side rows, Σ refund-side rows, has refund rows).
    var play: [PlayOrderKey: (charge: Int64, refund: Int64, refunded: Bool)] = [:]
    /// Stripe's balance report, by charge and invoice id.
    var stripe: StripeSettled

    init(reports: StoreReportRows, settings: TieOutSettings) {
      self.settings = settings
      stripe = StripeSettled(reports.stripeBalance, feed: reports.stripeFeed)
      var index: [CivilDate: Int] = [:]
      for (i, span) in settings.appleDays.enumerated() { index[span.day] = i }
      for row in reports.appleSales
      where row.isInApp && row.units > 0 && row.customerPriceMinor > 0
        && row.proceedsCurrency == row.customerCurrency
      {
        guard let day = index[row.day] else { continue }
        Book.note(
          &appleReported,
          AppleKey(
            day: day, product: row.productId, country: row.country, currency: row.customerCurrency,
            unitPrice: row.customerPriceMinor), row.proceedsPerUnitMinor)
      }
      for row in reports.appleFinancial
      where !row.isReturn && row.quantity > 0 && row.partnerShareCurrency == row.customerCurrency {
        var day = row.startDay
        while day <= row.endDay {
          if let d = index[day] {
            Book.note(
              &appleSettled,
              AppleKey(
                day: d, product: row.productId, country: row.country, currency: row.customerCurrency,
                unitPrice: row.customerPriceMinor), row.partnerShareMinor)
          }
          day = day.next
        }
      }
      play.reserveCapacity(reports.playEarnings.count / 2)
      for row in reports.playEarnings where row.type != .adjustment {
        // One look-up, the entry changed in place.
        Book.add(row, to: &play[row.order, default: (0, 0, false)])
      }
    }

    static func add(_ row: PlayEarningsRow, to entry: inout (charge: Int64, refund: Int64, refunded: Bool)) {
      switch row.type {
      case .chargeRefund, .googleFeeRefund, .taxRefund:
        entry.refund += row.buyerAmountMinor
        entry.refunded = true
      default:
        entry.charge += row.buyerAmountMinor
      }
    }

    static func note(_ table: inout PerUnit, _ key: AppleKey, _ value: Int64) {
      if let known = table[key] {
        if known != value { table[key] = .some(nil) }
      } else {
        table[key] = value
      }
    }

    /// Per-unit proceeds of an Apple charge, settled first.
    func apple(_ key: AppleKey) -> (Int64, ProceedsSource)? {
      if let found = appleSettled[key], let value = found { return (value, .settled) }
      if let found = appleReported[key], let value = found { return (value, .reported) }
      return nil
    }
  }

  /// Adds chain `c`'s charges and refunds that revenue counts.
  static func add(
    chain c: Int, _ view: borrowing LedgerView, book: Book, asOf t: Int64, dayOf: (Instant) -> CivilDate,
    to out: inout RevenueSumsByKey
  ) {
    let s = view.storage
    let store = view.chain(c).store
    let slot = LedgerStorage.slot(store)
    var anniversary: Instant?
    func note(_ at: Int64, _ r: PackedRecord, _ amount: Int64, _ source: ProceedsSource) {
      let rank = UInt8(ProceedsSource.allCases.firstIndex(of: source) ?? 0)
      out.add(dayOf(Instant(ms: at)), slot, s.products.nameID(ofVariant: r.variant), r.currency) { sums in
        sums.proceedsMinor.add(amount, overflow: &sums.overflowed)
        sums.proceedsRank = max(sums.proceedsRank, rank)
      }
    }
    // The purchases, then the refunds (one range after the other, without an array per chain).
    let purchases = view.purchases(c)
    let refunds = view.refunds(c)
    for i in 0..<(purchases.count + refunds.count) {
      do {
        let k = i < purchases.count ? purchases.lowerBound + i : refunds.lowerBound + (i - purchases.count)
        let n = view.recordNumber(at: k)
        let r = view.record(number: n)
        guard r.flags.revenueSlot >= 0, r.currency != 0 else { continue }
        if anniversary == nil && r.kind == .purchase && r.amount > 0 {
          anniversary = FeeSchedule.firstAnniversary(Instant(ms: r.at))
        }
        let (proceeds, source) = charge(n, r, view, store: store, book: book, anniversary: anniversary)
        // Play and Stripe refunds are records of their own; an App Store refund is its purchase's revocation.
        if store != .appStore {
          note(r.at, r, r.kind == .refund ? -proceeds : proceeds, source)
          continue
        }
        note(r.at, r, proceeds, source)
        guard r.amount > 0,
          let refund = Revenue.revocationRefund(n, r, s, asOf: t, rounding: book.settings.rounding)
        else { continue }
        let share = book.settings.rounding.scale(proceeds, numerator: refund.amount, denominator: r.amount)
        note(refund.at.ms, r, -share, source)
      }
    }
  }

  /// The per-unit look-up key of an App Store charge, when a report day covers it and its price divides
  /// by its quantity.
  static func appleKey(_ r: PackedRecord, _ view: borrowing LedgerView, book: Book) -> AppleKey? {
    guard let d = book.settings.appleDay(r.at) else { return nil }
    let products = view.products
    let quantity = Int64(products.quantity(ofVariant: r.variant))
    guard r.amount % quantity == 0 else { return nil }
    return AppleKey(
      day: d, product: products.name(ofVariant: r.variant),
      country: CountryCode.text(products.country(ofVariant: r.variant)),
      currency: Currency(tableIndex: Int(r.currency) - 1), unitPrice: r.amount / quantity)
  }

  /// The proceeds of one charge record (for a Play refund record: what its refund takes back, positive)
  /// and their source.
  static func charge(
    _ n: Int, _ r: PackedRecord, _ view: borrowing LedgerView, store: Store, book: Book, anniversary: Instant?
  ) -> (Int64, ProceedsSource) {
    let products = view.products
    let subscription = products.productType[Int(r.variant)] == .autoRenewable
    let tax = view.tax(n)
    if store == .play, !book.play.isEmpty {
      if let entry = book.play[PlayOrderKey(r.transactionId, pool: view.pool)] {
        if r.kind == .refund {
          if entry.refunded { return (-entry.refund, .settled) }
        } else {
          return (entry.charge, .settled)
        }
      }
    }
    if store == .stripe, !book.stripe.isEmpty,
      let net = book.stripe.net(
        r.transactionId.string(pool: view.pool), currency: Currency(tableIndex: Int(r.currency) - 1),
        refund: r.kind == .refund)
    {
      return (r.kind == .refund ? -net : net, .settled)
    }
    if store == .appStore, let key = appleKey(r, view, book: book), let (perUnit, source) = book.apple(key) {
      return (perUnit * Int64(products.quantity(ofVariant: r.variant)), source)
    }
    let bp = book.settings.fees.basisPoints(
      store: store, subscription: subscription, chargedAt: Instant(ms: r.at),
      firstAnniversary: anniversary ?? Instant(ms: Int64.max))
    let taxed = store == .play ? tax : 0
    return (
      FeeSchedule.proceeds(
        grossMinor: r.amount, taxMinor: taxed, basisPoints: bp, rounding: book.settings.rounding
      )
      .proceeds, .estimated
    )
  }
}
