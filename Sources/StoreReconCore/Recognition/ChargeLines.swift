import StoreReconPlatform

/// charges.csv: every charge and refund behind revenue.csv and revenue_recognition.csv, one line each
/// (docs/reports.md#chargescsv).
package enum ChargeLines {
  /// The lines of `ledger` as of its T in report order, with each charge's proceeds as revenue.csv
  /// counts them (`settled`: the stores' reports' look-ups).
  package static func lines(ledger: Ledger, settled: SettledProceeds) -> [ChargeLine] {
    let s = ledger.storage
    let count = s.chains.count
    let parts = Parallel.balancedParts(for: count, minimum: 20_000, perCore: 3)
    let t = ledger.asOf.ms
    let found = LedgerView.with(s) { view in
      Parallel.map(parts: parts) { part -> [ChargeLine] in
        var out: [ChargeLine] = []
        for c in Parallel.range(part, of: parts, count: count) {
          add(chain: c, view, book: settled.book, asOf: t, to: &out)
        }
        return out
      }
    }
    var all = found.flatMap { $0 }
    all.sort(by: ChargeLine.reportOrder)
    return all
  }

  /// Adds chain `c`'s lines: its counted charges and refunds (proceeds as ``RevenueProceeds`` gives
  /// them), then the voided orders recognition returns.
  static func add(
    chain c: Int, _ view: borrowing LedgerView, book: RevenueProceeds.Book, asOf t: Int64,
    to out: inout [ChargeLine]
  ) {
    let s = view.storage
    let store = view.chain(c).store
    let chainKey = view.chain(c).key.string(pool: view.pool)
    let products = view.products
    var anniversary: Instant?
    let purchases = view.purchases(c)
    let refunds = view.refunds(c)
    func line(_ kind: ChargeLine.Kind, _ r: PackedRecord, at: Int64, amount: Int64) -> ChargeLine {
      ChargeLine(
        kind: kind, store: store, chainKey: chainKey, transactionId: r.transactionId.string(pool: view.pool),
        productId: products.name(ofVariant: r.variant), currency: Currency(tableIndex: Int(r.currency) - 1),
        at: Instant(ms: at), amountMinor: amount, inRevenue: kind != .void, inRecognition: true)
    }
    var charged: Set<CompactID> = []
    for k in purchases {
      let r = view.record(at: k)
      if r.flags.revenueSlot >= 0 && r.currency != 0 && r.amount > 0 { charged.insert(r.tx) }
    }
    for i in 0..<(purchases.count + refunds.count) {
      let k = i < purchases.count ? purchases.lowerBound + i : refunds.lowerBound + (i - purchases.count)
      let n = view.recordNumber(at: k)
      let r = view.record(number: n)
      guard r.flags.revenueSlot >= 0, r.currency != 0 else { continue }
      if anniversary == nil && r.kind == .purchase && r.amount > 0 {
        anniversary = FeeSchedule.firstAnniversary(Instant(ms: r.at))
      }
      let (proceeds, source) = RevenueProceeds.charge(
        n, r, view, store: store, book: book, anniversary: anniversary)
      if r.kind == .refund {
        var l = line(.refund, r, at: r.at, amount: r.amount)
        (l.proceedsMinor, l.proceedsSource) = (-proceeds, source)
        l.inRecognition = r.amount > 0 && charged.contains(r.tx)
        out.append(l)
        continue
      }
      var l = line(.charge, r, at: r.at, amount: r.amount)
      (l.proceedsMinor, l.proceedsSource) = (proceeds, source)
      l.serviceStart = Instant(ms: r.at)
      l.serviceEnd = Instant(ms: RevenueRecognition.serviceEnd(of: r, store: store, products))
      out.append(l)
      if store != .appStore {
        let returned = RevenueRecognition.playRefunds(of: r, chain: c, view)
        if let first = returned.first, !refunds.contains(where: { view.record(at: $0).tx == r.tx }) {
          out.append(line(.void, r, at: first.at, amount: first.amount))
        }
        continue
      }
      guard r.amount > 0,
        let refund = Revenue.revocationRefund(n, r, s, asOf: t, rounding: book.settings.rounding)
      else { continue }
      var back = line(.refund, r, at: refund.at.ms, amount: refund.amount)
      back.proceedsMinor = -book.settings.rounding.scale(
        proceeds, numerator: refund.amount, denominator: r.amount)
      back.proceedsSource = source
      out.append(back)
    }
  }
}
