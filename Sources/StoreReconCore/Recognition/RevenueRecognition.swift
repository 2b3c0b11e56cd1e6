import StoreReconPlatform

/// Revenue recognised over each paid charge's service period, and the deferred balance
/// (docs/reports.md#revenue_recognitioncsv).
///
/// Every production charge that counts in revenue.csv (price > 0, not Family Sharing, not sandbox or
/// test, not pending) is recognised ratably over its service period, fixed when it was charged: an App
/// Store transaction from `purchaseDate` to its `expiresDate` (an upgrade does not shorten it); a Play
/// order from its charge to one catalog period later (``BillingPeriod/advance(_:)``: the day of the
/// month clamped); a one-time product or consumable at once. Refunds reverse it on their day
/// (``ChargeSchedule``).
package enum RevenueRecognition {
  /// The recognition sums of `ledger` as of its T, months in the report time zone (`dayOf` gives an
  /// instant's report day, `startOf` a day's first instant).
  ///
  /// - Parameters:
  ///   - rounding: how an Apple prorated refund's share is rounded (as revenue.csv rounds it).
  package static func sums(
    ledger: Ledger, dayOf: (Instant) -> CivilDate, startOf: (CivilDate) -> Instant,
    rounding: RoundingRule = .halfEven
  ) -> RecognitionSums {
    let s = ledger.storage
    let t = ledger.asOf
    let last = ReportMonth(dayOf(Instant(ms: t.ms - 1)))
    var earliest = t.ms
    for n in 0..<s.records.count {
      let r = s.records[n]
      if r.flags.revenueSlot >= 0 && r.flags.rawValue & 3 == 0 { earliest = min(earliest, r.at) }
    }
    let calendar = RecognitionCalendar(
      first: ReportMonth(dayOf(Instant(ms: earliest))), last: last, asOf: t, startOf: startOf)
    let count = s.chains.count
    let parts = Parallel.balancedParts(for: count, minimum: 50_000, perCore: 3)
    let names = s.products.variants.map(\.name)
    let tables = LedgerView.with(s) { view in
      Parallel.map(parts: parts) { part -> PackedSums in
        var table = PackedSums()
        for c in Parallel.range(part, of: parts, count: count) {
          forEachCharge(chain: c, view, asOf: t.ms, rounding: rounding) { n, slot, schedule in
            let r = view.record(number: n)
            table.add(schedule, slot: slot, product: names[Int(r.variant)], currency: r.currency, calendar)
          }
        }
        return table
      }
    }
    var total = RecognitionSums()
    for table in tables { total.add(table.unpacked(names: s.products.names, calendar: calendar)) }
    return total
  }

  /// Calls `body` with each paid charge of chain `c` that counts in revenue: its record number, store
  /// slot and schedule (service period and refunds as of T).
  static func forEachCharge(
    chain c: Int, _ view: borrowing LedgerView, asOf t: Int64, rounding: RoundingRule,
    _ body: (Int, Int, ChargeSchedule) -> Void
  ) {
    let chain = view.chain(c)
    let products = view.storage.products
    for k in view.purchases(c) {
      let n = view.recordNumber(at: k)
      let r = view.record(number: n)
      let slot = r.flags.revenueSlot
      guard slot >= 0, r.flags.rawValue & 3 == 0, r.amount > 0, r.currency != 0 else { continue }
      let end = serviceEnd(of: r, store: chain.store, products)
      var schedule = ChargeSchedule(start: r.at, end: end, amount: r.amount)
      if chain.store != .appStore {
        schedule.refunds = playRefunds(of: r, chain: c, view)
      } else if let refund = Revenue.revocationRefund(n, r, view.storage, asOf: t, rounding: rounding) {
        schedule.refunds = [ChargeSchedule.Refund(at: refund.at.ms, amount: refund.amount)]
      }
      body(n, slot, schedule)
    }
  }

  /// The end of charge `r`'s service period (it starts at the charge): at once for a one-time product
  /// or consumable; an App Store transaction's `expiresDate`; else one catalog period later.
  static func serviceEnd(of r: PackedRecord, store: Store, _ products: ProductNames) -> Int64 {
    let type = products.productType[Int(r.variant)]
    if type == .consumable || type == .nonConsumable { return r.at }
    if store != .play && r.expires != PackedRecord.none { return r.expires }
    return products.period[Int(r.variant)].advance(Instant(ms: r.at)).ms
  }

  /// The refunds of Play order `r` in chain `c`: its refund rows, each on its day; without any, a
  /// voided purchase of the order returns the whole charge on the earliest void's day.
  static func playRefunds(of r: PackedRecord, chain c: Int, _ view: borrowing LedgerView)
    -> [ChargeSchedule.Refund]
  {
    guard r.tx != .empty else { return [] }
    var refunds: [ChargeSchedule.Refund] = []
    for q in view.refunds(c) {
      let refund = view.record(at: q)
      if refund.tx == r.tx && refund.amount > 0 {
        refunds.append(ChargeSchedule.Refund(at: refund.at, amount: refund.amount))
      }
    }
    guard refunds.isEmpty else { return refunds }
    var voided: Int64?
    for q in view.voids(c) where view.record(at: q).tx == r.tx {
      voided = min(voided ?? Int64.max, view.record(at: q).at)
    }
    return voided.map { [ChargeSchedule.Refund(at: $0, amount: r.amount)] } ?? []
  }
}

/// Recognition sums while the chains are read: keyed by numbers (store slot, product name number,
/// currency handle, month offsets), turned into ``RecognitionSums`` once.
struct PackedSums {
  var cells: [UInt64: RecognitionSums.Amounts] = [:]
  var waterfall: [UInt64: Int64] = [:]
  var overflowed = false

  /// slot (2 bits) | currency (16) | month (14) | product (32).
  @inline(__always)
  static func cellKey(_ slot: Int, _ currency: UInt16, _ month: Int, _ product: UInt32) -> UInt64 {
    UInt64(slot) << 62 | UInt64(currency) << 46 | UInt64(month & 0x3FFF) << 32 | UInt64(product)
  }

  /// slot (2 bits) | currency (16) | billed month (14) | recognised month (14).
  @inline(__always)
  static func flowKey(_ slot: Int, _ currency: UInt16, _ billed: Int, _ recognized: Int) -> UInt64 {
    UInt64(slot) << 62 | UInt64(currency) << 46 | UInt64(billed & 0x3FFF) << 32 | UInt64(recognized & 0x3FFF)
  }

  /// Adds one charge: billed in its month, each refund in its own, and what each month recognises from
  /// the charge month through T's month (or until nothing changes any more).
  mutating func add(
    _ schedule: ChargeSchedule, slot: Int, product: UInt32, currency: UInt16, _ calendar: RecognitionCalendar
  ) {
    let billedMonth = calendar.offset(of: schedule.start)
    cells[PackedSums.cellKey(slot, currency, billedMonth, product), default: .init()].billed.add(
      schedule.amount, overflow: &overflowed)
    for refund in schedule.refunds {
      let month = calendar.offset(of: refund.at)
      cells[PackedSums.cellKey(slot, currency, month, product), default: .init()].refunded.add(
        refund.amount, overflow: &overflowed)
    }
    let settled = schedule.settledAt
    var before: Int64 = 0
    var month = billedMonth
    while month < calendar.count {
      let boundary = calendar.closing(month)
      let isLast = month == calendar.count - 1
      let cumulative = schedule.recognized(by: boundary, inclusive: isLast, overflow: &overflowed)
      var part = cumulative
      part.subtract(before, overflow: &overflowed)
      if part != 0 {
        cells[PackedSums.cellKey(slot, currency, month, product), default: .init()].recognized.add(
          part, overflow: &overflowed)
        waterfall[PackedSums.flowKey(slot, currency, billedMonth, month), default: 0].add(
          part, overflow: &overflowed)
      }
      before = cumulative
      if boundary > settled { break }
      month += 1
    }
  }

  /// The sums with texts: product names by name number, months from the calendar's first.
  func unpacked(names: [String], calendar: RecognitionCalendar) -> RecognitionSums {
    var out = RecognitionSums()
    out.overflowed = overflowed
    func store(_ key: UInt64) -> Store {
      let slot = Int(key >> 62)
      return slot == 0 ? .appStore : (slot == 1 ? .play : .stripe)
    }
    func currency(_ key: UInt64) -> Currency { Currency(tableIndex: Int(key >> 46 & 0xFFFF) - 1) }
    func month(_ offset: UInt64) -> ReportMonth { ReportMonth(index: calendar.first.index + Int(offset)) }
    for (key, amounts) in cells {
      let cell = RecognitionSums.Cell(
        store: store(key), currency: currency(key), productId: names[Int(key & 0xFFFF_FFFF)],
        month: month(key >> 32 & 0x3FFF))
      out.cells[cell, default: .init()].add(amounts, overflow: &out.overflowed)
    }
    for (key, amount) in waterfall {
      let flow = RecognitionSums.Flow(
        store: store(key), currency: currency(key), billedMonth: month(key >> 32 & 0x3FFF),
        recognizedMonth: month(key & 0x3FFF))
      out.waterfall[flow, default: 0].add(amount, overflow: &out.overflowed)
    }
    return out
  }
}
