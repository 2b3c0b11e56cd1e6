import StoreReconPlatform

/// One report day of the Apple tie-out and the instants it spans (the report time zone's midnights).
package struct ReportDaySpan: Sendable, Equatable {
  package var day: CivilDate
  /// First instant of the day.
  package var start: Instant
  /// First instant of the next day.
  package var end: Instant

  /// Creates a span.
  package init(day: CivilDate, start: Instant, end: Instant) {
    self.day = day
    self.start = start
    self.end = end
  }
}

/// What the tie-out needs beside the ledger and the reports.
package struct TieOutSettings: Sendable {
  /// The fee schedule of the feed's proceeds estimates and the Play orders' estimated fee.
  package var fees = FeeSchedule()
  /// Rounding of estimated fees.
  package var rounding: RoundingRule = .halfEven
  /// The days the Apple Summary Sales reports cover (and the Financial reports' fiscal months), in the
  /// report time zone (`appStore.reportTimeZone`), sorted by day: the CLI works them out with the
  /// zone's rules, so that Core needs no time-zone database.
  package var appleDays: [ReportDaySpan] = []

  /// Default settings, no Apple days.
  package init() {}

  /// The Apple report day of `instant`, if a report covers it.
  @inline(__always)
  func appleDay(_ instant: Int64) -> Int? {
    var lower = 0
    var upper = appleDays.count
    while lower < upper {
      let middle = (lower + upper) / 2
      if appleDays[middle].end.ms <= instant { lower = middle + 1 } else { upper = middle }
    }
    guard lower < appleDays.count, appleDays[lower].start.ms <= instant else { return nil }
    return lower
  }
}

extension TieOut {
  /// The days (in `reports`' own terms) the tie-out covers: every Summary Sales report day, and every
  /// day of a Financial report's fiscal month (for settled proceeds).
  package static func appleReportDays(_ reports: StoreReportRows) -> [CivilDate] {
    var days = Set(reports.appleSales.map(\.day))
    var periods = Set<[CivilDate]>()
    for row in reports.appleFinancial where periods.insert([row.startDay, row.endDay]).inserted {
      // A fiscal month is 4 or 5 weeks: more than 62 days is not one.
      var day = row.startDay
      var count = 0
      while day <= row.endDay && count < 62 {
        days.insert(day)
        day = day.next
        count += 1
      }
    }
    return days.sorted()
  }

  /// The tie-out of the ledger's transactions against the stores' reports: Apple cells per Summary
  /// Sales report day, Play cells and orders per earnings month. docs/tieout.md states the rules.
  package static func build(ledger: Ledger, reports: StoreReportRows, settings: TieOutSettings) -> TieOut {
    var tieOut = buildStores(ledger: ledger, reports: reports, settings: settings)
    tieOut.orders += StripeTieOut.orders(
      feed: reports.stripeFeed, rows: reports.stripeBalance, settings: settings, asOf: ledger.asOf)
    return tieOut
  }

  /// The App Store's and Google Play's tie-out.
  static func buildStores(ledger: Ledger, reports: StoreReportRows, settings: TieOutSettings) -> TieOut {
    guard !reports.appleSales.isEmpty || !reports.playEarnings.isEmpty else { return TieOut() }
    // The feed's order lines go in as they are (a partition's go through their texts, feedRows).
    let (salesDays, months) = periods(reports, settings: settings, t: ledger.asOf.ms)
    let feed = TieOutFeed.collect(ledger: ledger, settings: settings, salesDays: salesDays, months: months)
    return build(
      cells: feedCells(feed.cells, ids: feed.ids, ledger: ledger), orders: feed.orders, reports: reports,
      settings: settings, asOf: ledger.asOf)
  }

  /// The feed's cells by name, with the transactions behind each, in report order.
  static func feedCells(
    _ cells: [TieOutFeed.CellKey: TieOutSums], ids: [TieOutFeed.CellKey: TieOutIds], ledger: Ledger
  ) -> [TieOutFeedRows.Cell] {
    var table = TieOutCellTable()
    table.addFeed(cells, ids: ids, products: ledger.storage.products)
    var named = table.table.map { TieOutFeedRows.Cell(key: $0.key, sums: $0.value.ledger, ids: $0.value.ids) }
    named.sort { TieOutFeedRows.Cell.precedes($0, $1) }
    return named
  }

  /// The report days and earnings months the tie-out covers as of `t`: those over by T.
  static func periods(_ reports: StoreReportRows, settings: TieOutSettings, t: Int64)
    -> (salesDays: Set<CivilDate>, months: Set<CivilDate>)
  {
    // Only periods over by T: the feed holds nothing after T, the report the whole period.
    let ended = Set(settings.appleDays.filter { $0.end.ms <= t }.map(\.day))
    let salesDays = Set(reports.appleSales.map(\.day)).intersection(ended)
    let months = Set(reports.playEarnings.map(\.month)).filter { month in
      let next =
        month.month == 12
        ? CivilDate(year: month.year + 1, month: 1, day: 1)
        : CivilDate(year: month.year, month: month.month + 1, day: 1)
      return next.startUTC.ms <= t
    }
    return (salesDays, months)
  }

  /// The transaction feed's side of the tie-out, by name: what a partition of a partitioned run
  /// contributes (docs/partitions.md); the sides of all partitions add up to the whole feed's.
  package static func feedRows(ledger: Ledger, reports: StoreReportRows, settings: TieOutSettings)
    -> TieOutFeedRows
  {
    guard !reports.appleSales.isEmpty || !reports.playEarnings.isEmpty else { return TieOutFeedRows() }
    let (salesDays, months) = periods(reports, settings: settings, t: ledger.asOf.ms)
    let feed = TieOutFeed.collect(ledger: ledger, settings: settings, salesDays: salesDays, months: months)
    var rows = TieOutFeedRows()
    rows.cells = feedCells(feed.cells, ids: feed.ids, ledger: ledger)
    rows.orders = feed.orders.map {
      TieOutFeedRows.Order(
        orderId: $0.order.string, month: $0.month, productId: $0.product, currency: $0.currency,
        itemMinor: $0.item, feeMinor: $0.fee)
    }
    return rows
  }

  /// The tie-out of a feed side (one run's, or the partitions' added up) against the stores' reports,
  /// Stripe's lines against its balance report after the stores'.
  package static func build(
    feed: TieOutFeedRows, reports: StoreReportRows, settings: TieOutSettings, asOf: Instant
  )
    -> TieOut
  {
    var tieOut = buildStores(feed: feed, reports: reports, settings: settings, asOf: asOf)
    tieOut.orders += StripeTieOut.orders(
      feed: feed.stripe, rows: reports.stripeBalance, settings: settings, asOf: asOf)
    return tieOut
  }

  /// The App Store's and Google Play's tie-out of a feed side.
  static func buildStores(
    feed: TieOutFeedRows, reports: StoreReportRows, settings: TieOutSettings, asOf: Instant
  )
    -> TieOut
  {
    guard !reports.appleSales.isEmpty || !reports.playEarnings.isEmpty else { return TieOut() }
    return build(
      cells: feed.cells,
      orders: feed.orders.map {
        TieOutFeed.OrderLine(
          order: PlayOrderKey($0.orderId), month: $0.month, product: $0.productId, currency: $0.currency,
          item: $0.itemMinor, fee: $0.feeMinor)
      }, reports: reports, settings: settings, asOf: asOf)
  }

  /// The tie-out of the feed's cells and order lines against the reports.
  static func build(
    cells feedCells: [TieOutFeedRows.Cell], orders feedOrders: [TieOutFeed.OrderLine],
    reports: StoreReportRows,
    settings: TieOutSettings, asOf: Instant
  ) -> TieOut {
    var cells = TieOutCellTable()
    let (salesDays, months) = periods(reports, settings: settings, t: asOf.ms)
    for row in reports.appleSales where row.isInApp && salesDays.contains(row.day) {
      cells.addReport(row)
    }
    var orders = TieOutOrderTable()
    // Most orders are in both: an earnings order has about three rows (charge, fee, tax).
    orders.table.reserveCapacity(max(feedOrders.count, reports.playEarnings.count / 3) + 1024)
    for row in reports.playEarnings where months.contains(row.month) {
      cells.addReport(row)
      orders.addReport(row)
    }
    for cell in feedCells {
      var sides = cells.table[cell.key, default: TieOutCellTable.Sides()]
      sides.ledger.add(cell.sums)
      sides.ids.merge(cell.ids)
      cells.table[cell.key] = sides
    }
    orders.addFeed(feedOrders)
    var tieOut = TieOut(cells: cells.finished(), orders: orders.finished())
    tieOut.overflow = cells.overflowedCell() ?? orders.overflowedOrder()
    tieOut.skippedAppleDays = Set(reports.appleSales.map(\.day)).subtracting(salesDays).sorted()
    tieOut.skippedPlayMonths = Set(reports.playEarnings.map(\.month)).subtracting(months).sorted()
    return tieOut
  }
}

/// Money of one cell side while the tie-out adds up.
struct TieOutSums {
  var units: Int64 = 0
  var gross: Int64 = 0
  var proceeds: Int64 = 0
  var freeUnits: Int64 = 0
  /// Whether a sum overflowed an `Int64` (docs/inputs.md#amounts-beyond-the-bound).
  var overflowed = false
}

/// The cells by (store/source, day, product, country, currency) while both sides add up.
struct TieOutCellTable {
  struct Key: Hashable {
    var source: StoreReportKind
    var day: CivilDate
    var product: String
    var country: String
    var currency: Currency
  }

  struct Sides {
    var report = TieOutSums()
    var ledger = TieOutSums()
    var proceedsCurrency: Currency?
    var proceedsCurrencies = 0
    /// The feed's transactions (Play: orders) behind the ledger side.
    var ids = TieOutIds()
  }

  var table: [Key: Sides] = [:]

  /// A Summary Sales row: priced units and their money (a refund row's negative units take
  /// units × |price| off), free units apart.
  mutating func addReport(_ row: AppleSalesRow) {
    let key = Key(
      source: .appleSales, day: row.day, product: row.productId, country: row.country,
      currency: row.customerCurrency)
    table[key, default: Sides()].add(
      row.units, price: row.customerPriceMinor, proceeds: row.proceedsPerUnitMinor,
      proceedsCurrency: row.proceedsCurrency)
  }

  /// An earnings row: `Charge` is a unit, `Charge refund` takes one off; every row of the order adds
  /// to the proceeds.
  mutating func addReport(_ row: PlayEarningsRow) {
    let key = Key(
      source: .playEarnings, day: row.month, product: row.productId, country: row.country,
      currency: row.buyerCurrency)
    TieOutCellTable.addEarnings(row, to: &table[key, default: Sides()])
  }

  /// One earnings row into its cell's sides, in place.
  static func addEarnings(_ row: PlayEarningsRow, to sides: inout Sides) {
    switch row.type {
    case .charge:
      sides.report.units.add(1, overflow: &sides.report.overflowed)
      sides.report.gross.add(row.buyerAmountMinor, overflow: &sides.report.overflowed)
    case .chargeRefund:
      sides.report.units.add(-1, overflow: &sides.report.overflowed)
      sides.report.gross.add(row.buyerAmountMinor, overflow: &sides.report.overflowed)
    default: break
    }
    sides.report.proceeds.add(row.buyerAmountMinor, overflow: &sides.report.overflowed)
    sides.noteProceedsCurrency(row.buyerCurrency)
  }

  /// The feed's sums (and the transactions behind them), keyed by variant numbers, turned into cells.
  mutating func addFeed(
    _ feed: [TieOutFeed.CellKey: TieOutSums], ids: [TieOutFeed.CellKey: TieOutIds], products: ProductNames
  ) {
    for (k, sums) in feed {
      let store: Store = k.source == .appleSales ? .appStore : .play
      var name = products.name(ofVariant: k.variant)
      if store == .play, let colon = name.firstIndex(of: ":") { name = String(name[..<colon]) }
      let key = Key(
        source: k.source, day: CivilDate(daysSinceEpoch: Int64(k.day)), product: name,
        country: CountryCode.text(products.country(ofVariant: k.variant)),
        currency: Currency(tableIndex: Int(k.currency) - 1))
      var sides = table[key, default: Sides()]
      sides.ledger.add(sums)
      if let cellIds = ids[k] { sides.ids.merge(cellIds) }
      table[key] = sides
    }
  }

  /// The first cell (by key) whose sums overflowed, named for the one-line error; nil when none did.
  func overflowedCell() -> String? {
    table.filter { $0.value.report.overflowed || $0.value.ledger.overflowed }.keys.map {
      "\($0.source.rawValue) cell \($0.day) \($0.product) \($0.country) \($0.currency.code)"
    }.min()
  }

  /// The cells with their status and detail, sorted by store, source, day, product, country, currency.
  func finished() -> [TieOutCell] {
    let keys = table.keys.sorted { a, b in
      if a.source != b.source { return a.source < b.source }
      if a.day != b.day { return a.day < b.day }
      if a.product != b.product { return a.product < b.product }
      if a.country != b.country { return a.country < b.country }
      return a.currency.code < b.currency.code
    }
    return keys.map { key in
      let sides = table[key] ?? Sides()
      var cell = TieOutCell(
        store: key.source.store, source: key.source, day: key.day, productId: key.product,
        country: key.country, currency: key.currency)
      cell.reportUnits = sides.report.units
      cell.ledgerUnits = sides.ledger.units
      cell.reportGrossMinor = sides.report.gross
      cell.ledgerGrossMinor = sides.ledger.gross
      cell.reportProceedsMinor = sides.report.proceeds
      cell.ledgerProceedsMinor = sides.ledger.proceeds
      cell.proceedsCurrency = sides.proceedsCurrency ?? key.currency
      cell.reportFreeUnits = sides.report.freeUnits
      cell.ledgerFreeUnits = sides.ledger.freeUnits
      TieOutWording.judge(&cell, proceedsCurrencies: sides.proceedsCurrencies, feedIds: sides.ids)
      return cell
    }
  }
}

extension TieOutCellTable.Sides {
  /// Adds `units` at a per-unit `price` (free when 0) and per-unit `proceeds`.
  mutating func add(_ units: Int64, price: Int64, proceeds: Int64, proceedsCurrency: Currency) {
    if price == 0 {
      report.freeUnits.add(units, overflow: &report.overflowed)
      return
    }
    // The importer bounds each row's products (docs/inputs.md#amounts-beyond-the-bound); checked anyway.
    let (gross, o1) = units.multipliedReportingOverflow(by: price.magnitudeInt64)
    let (money, o2) = units.multipliedReportingOverflow(by: proceeds.magnitudeInt64)
    if o1 || o2 { report.overflowed = true }
    report.units.add(units, overflow: &report.overflowed)
    report.gross.add(gross, overflow: &report.overflowed)
    report.proceeds.add(money, overflow: &report.overflowed)
    noteProceedsCurrency(proceedsCurrency)
  }

  mutating func noteProceedsCurrency(_ currency: Currency) {
    if proceedsCurrency == nil {
      proceedsCurrency = currency
      proceedsCurrencies = 1
    } else if proceedsCurrency != currency {
      proceedsCurrencies = 2
    }
  }
}

extension Int64 {
  /// |self| (Int64.min stays Int64.max: no report amount comes near it).
  @inline(__always) var magnitudeInt64: Int64 { self == .min ? .max : Swift.abs(self) }
}
