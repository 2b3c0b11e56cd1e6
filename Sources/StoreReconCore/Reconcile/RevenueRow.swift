import StoreReconPlatform

/// Revenue of one store × product × currency × day: what finance ties to the stores' consoles.
package struct RevenueRow: Sendable, Equatable {
  /// The report day (charges on their charge day, refunds on their refund day).
  package var day: CivilDate
  /// The store that took the money.
  package var store: Store
  /// The product id (the store's).
  package var productId: String
  /// The currency of the amounts.
  package var currency: Currency
  /// Number of production paid charges.
  package var charges: Int = 0
  /// What customers paid, tax included, in minor units.
  package var grossMinor: Int64 = 0
  /// Tax included in gross, where the export states it (Play); 0 where it does not (App Store JWS).
  package var taxMinor: Int64 = 0
  /// Money returned to customers that day, in minor units (positive).
  package var refundsMinor: Int64 = 0
  /// Number of refunds that day.
  package var refundCount: Int = 0
  /// What the developer gets of the row's charges, less what its refunds take back, in minor units of
  /// ``currency``: settled (earnings / Financial reports), reported (Sales reports) or estimated (the
  /// fee schedule on the price before tax), as ``proceedsSource`` says.
  package var proceedsMinor: Int64 = 0
  /// Where ``proceedsMinor`` comes from: the least settled source of any of the row's charges.
  package var proceedsSource: ProceedsSource = .estimated
  /// Stripe: what disputes took from the balance that day, less what won disputes reinstated, in minor
  /// units of ``currency`` (positive when money went out): Stripe's `dispute` and `dispute_reversal`
  /// balance rows (docs/tieout.md#disputes-in-revenuecsv). 0 for the stores, which have no disputes.
  package var disputedMinor: Int64 = 0
  /// Stripe: the dispute fees of those rows (positive when Stripe kept a fee, negative when it returned
  /// one). 0 for the stores.
  package var disputeFeesMinor: Int64 = 0
  /// Whether a sum of the row did not fit an `Int64`: the run stops with exit 65 rather than write it
  /// (docs/inputs.md#amounts-beyond-the-bound). Never written.
  package var overflowed = false

  /// Creates an empty row.
  package init(day: CivilDate, store: Store, productId: String, currency: Currency) {
    self.day = day
    self.store = store
    self.productId = productId
    self.currency = currency
  }
}

/// Where a proceeds figure comes from, from most to least final.
package enum ProceedsSource: String, Sendable, CaseIterable, Comparable {
  /// From the store's settlement: Play earnings report, Apple Financial report.
  case settled
  /// From the store's own daily report (Apple Summary Sales report's Developer Proceeds).
  case reported
  /// From the configured fee schedule (docs/config.md#fees): an estimate.
  case estimated

  package static func < (lhs: ProceedsSource, rhs: ProceedsSource) -> Bool {
    (ProceedsSource.allCases.firstIndex(of: lhs) ?? 0) < (ProceedsSource.allCases.firstIndex(of: rhs) ?? 0)
  }
}

/// Builds the revenue table from a ledger.
package enum Revenue {
  /// Revenue per day (as `dayOf` buckets instants), store, product and currency, sorted by those keys.
  ///
  /// Charges count on their charge day, refunds on their refund day. Sandbox, test, pending and Family
  /// Sharing records move no money and are left out; an Apple prorated refund counts its share of the
  /// price, rounded half-even. Play voided records carry no amount: Play refunds come from the sales
  /// report's `Refund` rows only.
  ///
  /// The records are read in storage order (the ledger marked, when it derived the chains, which ones
  /// count and under which store), in parts on all cores; the sums do not depend on the order.
  package static func rows(ledger: Ledger, dayOf: (Instant) -> CivilDate, rounding: RoundingRule = .halfEven)
    -> [RevenueRow]
  {
    let s = ledger.storage
    let t = ledger.asOf.ms
    let count = s.records.count
    let parts = Parallel.balancedParts(for: count, minimum: 200_000, perCore: 3)
    let names = s.products.variants.map(\.name)
    let tables = LedgerView.with(s) { view in
      Parallel.map(parts: parts) { part -> RevenueSumsByKey in
        var table = RevenueSumsByKey()
        for n in Parallel.range(part, of: parts, count: count) {
          add(record: n, view, productNames: names, asOf: t, rounding: rounding, dayOf: dayOf, to: &table)
        }
        return table
      }
    }
    return reportRows(total(tables), names: s.products.names)
  }

  /// Adds what record `n` moves to its rows: a charge on its charge day (and, for an App Store purchase
  /// revoked by T, its refund on the revocation day), or a Play refund row on its day. Records the
  /// ledger did not mark as counting in revenue move nothing.
  ///
  /// - Parameters:
  ///   - productNames: the product name number of each product variant.
  @inline(always)
  static func add(
    record n: Int, _ view: borrowing LedgerView, productNames names: [UInt32], asOf t: Int64,
    rounding: RoundingRule,
    dayOf: (Instant) -> CivilDate, to table: inout RevenueSumsByKey
  ) {
    let r = view.record(number: n)
    let slot = r.flags.revenueSlot
    guard slot >= 0, r.currency != 0 else { return }
    let store: Store = slot == 0 ? .appStore : (slot == 1 ? .play : .stripe)
    let product = names[Int(r.variant)]
    if r.flags.rawValue & 3 == 1 {
      table.add(dayOf(Instant(ms: r.at)), slot, product, r.currency) { row in
        row.refundsMinor.add(r.amount, overflow: &row.overflowed)
        row.refundCount += 1
      }
      return
    }
    let tax = view.storage.tax(n)
    table.add(dayOf(Instant(ms: r.at)), slot, product, r.currency) { row in
      row.charges += 1
      row.grossMinor.add(r.amount, overflow: &row.overflowed)
      row.taxMinor.add(tax, overflow: &row.overflowed)
    }
    // App Store refunds are revocations of the purchase itself; Play's and Stripe's are refund records.
    guard store == .appStore, let refund = revocationRefund(n, r, view.storage, asOf: t, rounding: rounding)
    else { return }
    table.add(dayOf(refund.at), slot, product, r.currency) { row in
      row.refundsMinor.add(refund.amount, overflow: &row.overflowed)
      row.refundCount += 1
    }
  }

  /// When purchase `n` (`r`) was refunded by its revocation as of T, and how much: the whole price, or
  /// its prorated share where `REFUND_PRORATED`; `nil` when it was not revoked by T, or the revocation
  /// returned no money (a Family Sharing removal, an upgrade).
  @inline(always)
  static func revocationRefund(
    _ n: Int, _ r: PackedRecord, _ s: LedgerStorage, asOf t: Int64, rounding: RoundingRule
  ) -> (at: Instant, amount: Int64)? {
    guard let rare = s.rareFields(n), let at = rare.revokedAt, at.ms <= t else { return nil }
    let type = rare.revocationTypeUpper
    guard type != "FAMILY_REVOKE" else { return nil }
    if r.isUpgraded && type == nil && rare.revocationReason == nil { return nil }
    var refunded = r.amount
    if type == "REFUND_PRORATED", let milli = rare.revocationPercentMilli {
      refunded = rounding.scale(r.amount, numerator: milli, denominator: 100_000)
    }
    return (at, refunded)
  }

  /// The parts' tables summed, in part order.
  static func total(_ tables: [RevenueSumsByKey]) -> RevenueSumsByKey {
    var total = RevenueSumsByKey()
    for part in tables {
      for e in part.entries {
        total.add(e.day, Int(e.slot), e.product, e.currency) { row in
          row.charges += e.sums.charges
          row.grossMinor.add(e.sums.grossMinor, overflow: &row.overflowed)
          row.taxMinor.add(e.sums.taxMinor, overflow: &row.overflowed)
          row.refundsMinor.add(e.sums.refundsMinor, overflow: &row.overflowed)
          row.refundCount += e.sums.refundCount
          if e.sums.overflowed { row.overflowed = true }
        }
      }
    }
    return total
  }

  /// The table's rows sorted by day, store, product and currency, each ranked once.
  ///
  /// - Parameters:
  ///   - names: the product names, by name number.
  static func reportRows(_ table: RevenueSumsByKey, names: [String]) -> [RevenueRow] {
    let entries = table.entries
    let productRank = rank(names)
    let currencies = Set(entries.map(\.currency)).sorted()
    let currencyRank = rank(currencies.map { Currency(tableIndex: Int($0) - 1) })
    var stores = [Store](repeating: .appStore, count: Store.allCases.count)
    for store in Store.allCases { stores[LedgerStorage.slot(store)] = store }
    let storeRank = rank(stores)
    func rankOf(_ currency: UInt16) -> Int {
      var lower = 0
      var upper = currencies.count
      while lower < upper {
        let middle = (lower + upper) / 2
        if currencies[middle] < currency { lower = middle + 1 } else { upper = middle }
      }
      return currencyRank[lower]
    }
    struct SortKey {
      var day: CivilDate
      var rest: (Int, Int, Int, Int)
    }
    let keys = entries.map { e in
      SortKey(
        day: e.day,
        rest: (
          storeRank[Int(e.slot)], productRank[Int(e.product)], rankOf(e.currency), Int(e.product)
        ))
    }
    var order = Array(entries.indices)
    order.sort { a, b in
      let x = keys[a]
      let y = keys[b]
      if x.day != y.day { return x.day < y.day }
      if x.rest != y.rest { return x.rest < y.rest }
      return a < b
    }
    return order.map { i in
      let e = entries[i]
      let store: Store = e.slot == 0 ? .appStore : (e.slot == 1 ? .play : .stripe)
      var row = RevenueRow(
        day: e.day, store: store, productId: names[Int(e.product)],
        currency: Currency(tableIndex: Int(e.currency) - 1))
      row.charges = e.sums.charges
      row.grossMinor = e.sums.grossMinor
      row.taxMinor = e.sums.taxMinor
      row.refundsMinor = e.sums.refundsMinor
      row.refundCount = e.sums.refundCount
      row.overflowed = e.sums.overflowed
      return row
    }
  }

  /// Each value's rank in `values` sorted by `<` (values that are `==` share a rank).
  static func rank<T: Comparable>(_ values: [T]) -> [Int] {
    let sorted = values.indices.sorted { values[$0] < values[$1] }
    var ranks = [Int](repeating: 0, count: values.count)
    var rank = 0
    for (k, i) in sorted.enumerated() {
      if k > 0 && values[sorted[k - 1]] != values[i] { rank = k }
      ranks[i] = rank
    }
    return ranks
  }
}

/// The sums of one revenue row while the records are read.
struct RevenueSums {
  var charges = 0
  var grossMinor: Int64 = 0
  var taxMinor: Int64 = 0
  var refundsMinor: Int64 = 0
  var refundCount = 0
  /// Proceeds (``RevenueProceeds``) and the least settled source's rank (``ProceedsSource`` order).
  var proceedsMinor: Int64 = 0
  var proceedsRank: UInt8 = 0
  /// Whether a sum overflowed an `Int64` (docs/inputs.md#amounts-beyond-the-bound).
  var overflowed = false
}

/// Revenue rows by (day, store, product name number, currency handle): an open-addressing table of
/// row numbers over an array of rows (no `Hasher`, no texts).
struct RevenueSumsByKey {
  struct Entry {
    var day: CivilDate
    var product: UInt32
    var currency: UInt16
    var slot: UInt8
    var sums = RevenueSums()
  }

  private(set) var entries: [Entry] = []
  /// 0 empty, else entry number + 1.
  private var slots = [Int32](repeating: 0, count: 1024)

  @inline(__always)
  private static func hash(_ day: CivilDate, _ product: UInt32, _ currency: UInt16, _ slot: UInt8) -> Int {
    var h = UInt64(truncatingIfNeeded: day.year) &* 0x9E37_79B9_7F4A_7C15
    h = (h ^ UInt64(truncatingIfNeeded: day.month << 8 | day.day)) &* 0xBF58_476D_1CE4_E5B9
    h = (h ^ (UInt64(product) << 24 | UInt64(currency) << 8 | UInt64(slot))) &* 0x94D0_49BB_1331_11EB
    return Int(truncatingIfNeeded: h ^ (h >> 31))
  }

  /// The sums of (`day`, `slot`, `product`, `currency`), if the table has them.
  func find(_ day: CivilDate, _ slot: Int, _ product: UInt32, _ currency: UInt16) -> RevenueSums? {
    let store = UInt8(truncatingIfNeeded: slot)
    let mask = slots.count - 1
    var i = RevenueSumsByKey.hash(day, product, currency, store) & mask
    while slots[i] != 0 {
      let e = entries[Int(slots[i] - 1)]
      if e.product == product && e.currency == currency && e.slot == store && e.day == day { return e.sums }
      i = (i + 1) & mask
    }
    return nil
  }

  /// Updates the row of (`day`, `slot`, `product`, `currency`), adding it when new.
  @inline(__always)
  mutating func add(
    _ day: CivilDate, _ slot: Int, _ product: UInt32, _ currency: UInt16,
    _ update: (inout RevenueSums) -> Void
  ) {
    let store = UInt8(truncatingIfNeeded: slot)
    var mask = slots.count - 1
    var i = RevenueSumsByKey.hash(day, product, currency, store) & mask
    while true {
      let found = slots[i]
      if found == 0 { break }
      let e = Int(found - 1)
      if entries[e].product == product && entries[e].currency == currency && entries[e].slot == store
        && entries[e].day == day
      {
        update(&entries[e].sums)
        return
      }
      i = (i + 1) & mask
    }
    entries.append(Entry(day: day, product: product, currency: currency, slot: store))
    update(&entries[entries.count - 1].sums)
    if entries.count * 2 > slots.count {
      slots = [Int32](repeating: 0, count: slots.count * 2)
      mask = slots.count - 1
      for (k, e) in entries.enumerated() {
        var j = RevenueSumsByKey.hash(e.day, e.product, e.currency, e.slot) & mask
        while slots[j] != 0 { j = (j + 1) & mask }
        slots[j] = Int32(k + 1)
      }
    } else {
      slots[i] = Int32(entries.count)
    }
  }
}
