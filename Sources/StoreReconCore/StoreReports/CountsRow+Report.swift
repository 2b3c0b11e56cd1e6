/// The seeds' daily check against the console: per store and product, the store report's paid units
/// of the report day beside the chains paid through T and the active entitlements.
extension CountsRow {
  /// `rows` with ``reportPaidUnits`` and ``detail`` filled in (and rows added for products only the
  /// reports name), sorted by store then product.
  ///
  /// App Store: the latest Summary Sales report day `appleDay` (the latest over by T, at most the report
  /// date: Apple's day ends up to 8 hours after a UTC day) — its priced in-app units, refunds taken off.
  /// Play: the sales report's rows of the report day (UTC), charges less refunds, of the records revenue
  /// counts, when a sales report was read.
  package static func withReportUnits(
    _ rows: [CountsRow], reports: StoreReportRows, ledger: Ledger, date: CivilDate, appleDay: CivilDate?,
    hasPlaySales: Bool
  ) -> [CountsRow] {
    withReportUnits(
      rows, reports: reports, date: date, appleDay: appleDay,
      playUnits: hasPlaySales ? playUnits(ledger: ledger, day: date) : nil)
  }

  /// The rows with the stores' own units, the Play units of the report day already counted
  /// (`playUnits`, product → units; `nil` where the run reads no Play sales report): a partitioned
  /// run's merge adds up its partitions' counts.
  package static func withReportUnits(
    _ rows: [CountsRow], reports: StoreReportRows, date: CivilDate, appleDay: CivilDate?,
    playUnits play: [String: Int64]?
  ) -> [CountsRow] {
    var apple: [String: Int64]?
    if let appleDay {
      var units: [String: Int64] = [:]
      for row in reports.appleSales where row.day == appleDay && row.isInApp && row.customerPriceMinor != 0 {
        units[row.productId, default: 0] += row.units
      }
      apple = units
    }
    var table: [Store: [String: CountsRow]] = [:]
    for row in rows { table[row.store, default: [:]][row.productId] = row }
    for (store, units, day) in [(Store.appStore, apple, appleDay), (.play, play, date)] {
      guard let units else { continue }
      for (product, n) in units {
        var row = table[store]?[product] ?? CountsRow(store: store, productId: product)
        row.reportPaidUnits = n
        table[store, default: [:]][product] = row
      }
      for (product, var row) in table[store] ?? [:] {
        if row.reportPaidUnits == nil { row.reportPaidUnits = 0 }
        row.reportDay = day
        table[store, default: [:]][product] = row
      }
    }
    var out: [CountsRow] = []
    for (_, products) in table {
      for (_, var row) in products {
        row.detail = detail(row)
        out.append(row)
      }
    }
    return out.sorted { ($0.store, $0.productId) < ($1.store, $1.productId) }
  }

  /// Play charges less refunds on UTC day `day`, per product name, of the records revenue counts.
  package static func playUnits(ledger: Ledger, day: CivilDate) -> [String: Int64] {
    let s = ledger.storage
    let start = day.startUTC.ms
    let end = day.next.startUTC.ms
    var units: [UInt32: Int64] = [:]
    LedgerView.with(s) { view in
      for c in 0..<view.chainCount where view.chain(c).store == .play {
        for range in [view.purchases(c), view.refunds(c)] {
          for k in range {
            let r = view.record(at: k)
            guard r.flags.revenueSlot >= 0, r.at >= start, r.at < end, r.amount > 0 else { continue }
            units[s.products.nameID(ofVariant: r.variant), default: 0] += r.kind == .refund ? -1 : 1
          }
        }
      }
    }
    var out: [String: Int64] = [:]
    for (name, n) in units { out[s.products.names[Int(name)], default: 0] += n }
    return out
  }

  /// The differences in words: entitlements against paid chains, and the report's units of the day.
  static func detail(_ row: CountsRow) -> String {
    var words: [String] = []
    let d = row.difference
    if d > 0 {
      words.append("\(d) more active entitlement\(d == 1 ? "" : "s") than chains paid through T")
    } else if d < 0 {
      words.append("\(-d) chain\(d == -1 ? "" : "s") paid through T without an active entitlement")
    }
    if let units = row.reportPaidUnits, let day = row.reportDay {
      words.append("the store's report of \(day) counts \(units) paid unit\(units == 1 ? "" : "s")")
    }
    return words.joined(separator: "; ")
  }
}
