import StoreReconPlatform

/// The transaction feed's side of the tie-out, read from the ledger in parts on all cores.
enum TieOutFeed {
  /// A feed cell by numbers: source, day (days since 1970 of the Apple report day or the Play month's
  /// first day), product variant, currency handle + 1.
  struct CellKey: Hashable {
    var source: StoreReportKind
    var day: Int32
    var variant: UInt32
    var currency: UInt16
  }

  /// One Play sales row of an earnings month, for the orders.
  struct OrderLine {
    var order: PlayOrderKey
    var month: CivilDate
    var product: String
    var currency: Currency
    /// Item price before tax: positive for a charge, negative for a refund.
    var item: Int64
    /// The fee schedule's fee on it, signed as `item`.
    var fee: Int64
  }

  struct Part {
    var cells: [CellKey: TieOutSums] = [:]
    var orders: [OrderLine] = []
    /// The priced transactions (Play: orders) behind each cell, for the detail of a difference.
    var ids: [CellKey: PackedIds] = [:]
  }

  /// A cell's transactions while the feed is read: the ``TieOutIds/limit`` smallest as packed ids
  /// (compared as their texts, without making a `String` of each), and how many there are.
  struct PackedIds {
    var shown: [PackedID] = []
    var count: Int64 = 0

    /// One more id of the cell (each added once).
    mutating func add(_ id: PackedID, pool: TextPool) {
      count += 1
      keep(id, pool: pool)
    }

    /// Another part's ids (of other chains).
    mutating func merge(_ other: PackedIds, pool: TextPool) {
      count += other.count
      for id in other.shown { keep(id, pool: pool) }
    }

    private mutating func keep(_ id: PackedID, pool: TextPool) {
      if shown.count == TieOutIds.limit, let last = shown.last, PackedID.compare(id, last, pool: pool) >= 0 {
        return
      }
      var lower = 0
      var upper = shown.count
      while lower < upper {
        let middle = (lower + upper) / 2
        if PackedID.less(shown[middle], id, pool: pool) { lower = middle + 1 } else { upper = middle }
      }
      if lower < shown.count && shown[lower] == id { return }
      shown.insert(id, at: lower)
      if shown.count > TieOutIds.limit { shown.removeLast() }
    }

    /// The texts.
    func ids(pool: TextPool) -> TieOutIds {
      TieOutIds(shown: shown.map { $0.string(pool: pool) }, count: count)
    }
  }

  /// The feed's cells and order lines, and the transactions behind each cell.
  static func collect(
    ledger: Ledger, settings: TieOutSettings, salesDays: Set<CivilDate>, months: Set<CivilDate>
  )
    -> (cells: [CellKey: TieOutSums], orders: [OrderLine], ids: [CellKey: TieOutIds])
  {
    let s = ledger.storage
    let t = ledger.asOf.ms
    let coveredDays = settings.appleDays.map { salesDays.contains($0.day) }
    let monthDays = Set(months.map { Int32(truncatingIfNeeded: $0.daysSinceEpoch) })
    let spans = MonthSpan.spans(monthDays)
    let count = s.chains.count
    let parts = Parallel.balancedParts(for: count, minimum: 20_000)
    // Play's product id in the earnings report is the SKU: the name without `:basePlan`, per variant.
    let skus = s.products.variants.map { v -> String in
      let name = s.products.names[Int(v.name)]
      return name.firstIndex(of: ":").map { String(name[..<$0]) } ?? name
    }
    let results = LedgerView.with(s) { view in
      Parallel.map(parts: parts) { part -> Part in
        var out = Part()
        for c in Parallel.range(part, of: parts, count: count) {
          switch view.chain(c).store {
          case .appStore:
            guard !salesDays.isEmpty else { continue }
            addApple(chain: c, view, settings: settings, covered: coveredDays, asOf: t, to: &out)
          case .play:
            guard !monthDays.isEmpty else { continue }
            addPlay(chain: c, view, settings: settings, months: spans, skus: skus, to: &out)
          case .stripe: continue
          }
        }
        return out
      }
    }
    var cells: [CellKey: TieOutSums] = [:]
    var orders: [OrderLine] = []
    var packed: [CellKey: PackedIds] = [:]
    for part in results {
      for (k, v) in part.cells {
        cells[k, default: TieOutSums()].add(v)
      }
      for (k, v) in part.ids { packed[k, default: PackedIds()].merge(v, pool: s.pool) }
      orders += part.orders
    }
    return (cells, orders, packed.mapValues { $0.ids(pool: s.pool) })
  }

  /// An App Store chain's purchases: production, purchased (not Family Sharing); a priced one adds its
  /// quantity and price on its report day, a free one its quantity as free units; a revocation with a
  /// reason (not an upgrade) by T takes them off on the revocation's day.
  static func addApple(
    chain c: Int, _ view: borrowing LedgerView, settings: TieOutSettings, covered: [Bool], asOf t: Int64,
    to out: inout Part
  ) {
    let products = view.products
    var anniversary: Instant?
    for k in view.purchases(c) {
      let n = view.recordNumber(at: k)
      let r = view.record(number: n)
      guard r.isProduction, !r.isFamilyShared, r.currency != 0 else { continue }
      if anniversary == nil && r.amount > 0 {
        anniversary = FeeSchedule.firstAnniversary(Instant(ms: r.at))
      }
      let units = Int64(products.quantity(ofVariant: r.variant))
      let subscription = products.productType[Int(r.variant)] == .autoRenewable
      let bp = settings.fees.basisPoints(
        store: .appStore, subscription: subscription, chargedAt: Instant(ms: r.at),
        firstAnniversary: anniversary ?? Instant(ms: Int64.max))
      let proceeds = FeeSchedule.proceeds(
        grossMinor: r.amount, taxMinor: 0, basisPoints: bp, rounding: settings.rounding
      ).proceeds
      var chargeKey: CellKey?
      if let d = settings.appleDay(r.at), covered[d] {
        let key = CellKey(
          source: .appleSales, day: Int32(truncatingIfNeeded: settings.appleDays[d].day.daysSinceEpoch),
          variant: r.variant, currency: r.currency)
        out.cells[key, default: TieOutSums()].addCharge(units: units, amount: r.amount, proceeds: proceeds)
        if r.amount != 0 {
          out.ids[key, default: PackedIds()].add(r.transactionId, pool: view.pool)
          chargeKey = key
        }
      }
      guard r.amount > 0, let rare = view.storage.rareFields(n), let revoked = rare.revokedAt,
        revoked.ms <= t,
        rare.revocationReason != nil, !r.isUpgraded, let d = settings.appleDay(revoked.ms), covered[d]
      else { continue }
      let key = CellKey(
        source: .appleSales, day: Int32(truncatingIfNeeded: settings.appleDays[d].day.daysSinceEpoch),
        variant: r.variant, currency: r.currency)
      out.cells[key, default: TieOutSums()].addCharge(units: -units, amount: -r.amount, proceeds: -proceeds)
      // A refund on its purchase's day is the same transaction of the same cell.
      if key != chargeKey { out.ids[key, default: PackedIds()].add(r.transactionId, pool: view.pool) }
    }
  }

  /// A Play chain's sales rows that revenue counts, in an earnings month (UTC month of the charge):
  /// a `Charged` row adds a unit and its item price, a `Refund` row takes them off.
  static func addPlay(
    chain c: Int, _ view: borrowing LedgerView, settings: TieOutSettings, months: [MonthSpan], skus: [String],
    to out: inout Part
  ) {
    let products = view.products
    // The purchases, then the refunds (one range after the other, without an array per chain).
    let purchases = view.purchases(c)
    let refunds = view.refunds(c)
    for i in 0..<(purchases.count + refunds.count) {
      let k = i < purchases.count ? purchases.lowerBound + i : refunds.lowerBound + (i - purchases.count)
      let n = view.recordNumber(at: k)
      let r = view.record(number: n)
      guard r.flags.revenueSlot >= 0, r.currency != 0 else { continue }
      // The earnings month of the charge (its UTC month), found by instant: most of a chain's history
      // lies outside the few months the earnings reports cover.
      guard let span = months.first(where: { $0.startMs <= r.at && r.at < $0.endMs }) else { continue }
      let refund = r.kind == .refund
      let item = r.amount - min(max(view.tax(n), 0), r.amount)
      let subscription = products.productType[Int(r.variant)] == .autoRenewable
      let bp = settings.fees.basisPoints(
        store: .play, subscription: subscription, chargedAt: Instant(ms: r.at),
        firstAnniversary: Instant(ms: Int64.max))
      let fee = settings.rounding.scale(item, numerator: bp, denominator: 10_000)
      let sign: Int64 = refund ? -1 : 1
      let key = CellKey(source: .playEarnings, day: span.number, variant: r.variant, currency: r.currency)
      out.cells[key, default: TieOutSums()].addCharge(
        units: sign, amount: sign * item, proceeds: sign * (item - fee))
      if item != 0
        && !(refund && chargedInCell(r.transactionId, purchases, view, span: span))
      {
        out.ids[key, default: PackedIds()].add(r.transactionId, pool: view.pool)
      }
      out.orders.append(
        OrderLine(
          order: PlayOrderKey(r.transactionId, pool: view.pool), month: span.month,
          product: skus[Int(r.variant)],
          currency: Currency(tableIndex: Int(r.currency) - 1), item: sign * item, fee: sign * fee))
    }
  }

  /// Whether a priced `Charged` row of the chain's `purchases` has the order `id` in `span` (so a refund
  /// of it in the same month is the same order of the same cell, listed once).
  static func chargedInCell(
    _ id: PackedID, _ purchases: Range<Int>, _ view: borrowing LedgerView, span: MonthSpan
  ) -> Bool {
    for k in purchases {
      let n = view.recordNumber(at: k)
      let r = view.record(number: n)
      guard r.transactionId == id, r.flags.revenueSlot >= 0, r.currency != 0 else { continue }
      if span.startMs <= r.at && r.at < span.endMs && r.amount - min(max(view.tax(n), 0), r.amount) != 0 {
        return true
      }
    }
    return false
  }

  /// An earnings month as instants: `[startMs, endMs)` in UTC, its first day and that day's number.
  struct MonthSpan {
    var startMs: Int64
    var endMs: Int64
    var month: CivilDate
    var number: Int32

    /// The spans of the months whose first days are `numbers` (days since 1970), in day order.
    static func spans(_ numbers: Set<Int32>) -> [MonthSpan] {
      numbers.sorted().map { number in
        let month = CivilDate(daysSinceEpoch: Int64(number))
        let next =
          month.month == 12
          ? CivilDate(year: month.year + 1, month: 1, day: 1)
          : CivilDate(year: month.year, month: month.month + 1, day: 1)
        return MonthSpan(
          startMs: Int64(number) * Instant.msPerDay, endMs: Int64(next.daysSinceEpoch) * Instant.msPerDay,
          month: month, number: number)
      }
    }
  }
}

extension TieOutSums {
  /// A priced charge (or, negative, its refund) of `units`; a free one (amount 0) as free units.
  @inline(__always)
  mutating func addCharge(units n: Int64, amount: Int64, proceeds p: Int64) {
    if amount == 0 {
      freeUnits.add(n, overflow: &overflowed)
      return
    }
    units.add(n, overflow: &overflowed)
    gross.add(amount, overflow: &overflowed)
    proceeds.add(p, overflow: &overflowed)
  }

  /// Adds another side's sums (checked; an overflow on either side stays marked).
  mutating func add(_ other: TieOutSums) {
    units.add(other.units, overflow: &overflowed)
    gross.add(other.gross, overflow: &overflowed)
    proceeds.add(other.proceeds, overflow: &overflowed)
    freeUnits.add(other.freeUnits, overflow: &overflowed)
    if other.overflowed { overflowed = true }
  }
}
