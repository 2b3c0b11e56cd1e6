import StoreReconCore

/// Google Play earnings reports: the rows, the plants, the truth and the files.
///
/// Per sales `Charged` row of a month: a `Charge` (+item price, before tax, buyer currency) and a
/// `Google fee` (−the fee schedule's fee: 15 % subscriptions, 30 % one-time, half-even); per `Refund`
/// row: `Charge refund` (−item price) and `Google fee refund` (+fee). No `Tax` rows: the demo's Google
/// remits the tax itself. Merchant currency USD at the demo's FX rate of the month (DemoFX.swift).
extension DemoStoreReports {
  /// One earnings row before it is written.
  struct EarningsRow {
    var orderId: String
    var at: Instant
    var month: CivilDate
    var type: PlayEarningsRow.TransactionType
    var product: DemoProduct
    var country: DemoCountry
    var device: String
    /// Buyer currency, minor units, signed.
    var amount: Int64

    var cell: CellKey {
      CellKey(
        day: month, productId: product.playSku, country: country.alpha2, currency: country.currency.code)
    }
  }

  /// Planted Play orders per status.
  static let playOrderPlan: [TieOutOrder.Status: Int] = [
    .missingInEarnings: 2, .missingInSales: 2, .amountDiffers: 2, .feeDiffers: 2,
  ]
  /// What those orders do to their cells (a fee difference leaves the cell `match`).
  static let playCellPlan: [TieOutCell.Status: Int] = [.reportLess: 2, .reportMore: 2, .priceDiffers: 2]

  /// The fee schedule's rate in basis points (the demo config's `fees.play`).
  static func feeBp(_ product: DemoProduct) -> Int64 { product.isSubscription ? 1500 : 3000 }

  /// `item × bp / 10 000`, half-even.
  static func fee(_ item: Int64, bp: Int64) -> Int64 {
    RoundingRule.halfEven.scale(item, numerator: bp, denominator: 10_000)
  }

  /// `exports/play/earnings/PlayApps_YYYYMM.csv`.
  static func earningsPath(_ month: CivilDate) -> String {
    "exports/play/earnings/PlayApps_\(month.year)\(DemoIdentifiers.padded(Int64(month.month), 2)).csv"
  }

  /// The rows of one sales row: its charge (or refund) and fee; `charge` and `bp` override the amounts.
  func earningsRows(_ sale: PlaySale, charge: Int64? = nil, bp: Int64? = nil) -> [EarningsRow] {
    let item = sale.country.playAmounts(sale.product.tier).item
    let fee = DemoStoreReports.fee(item, bp: bp ?? DemoStoreReports.feeBp(sale.product))
    func row(_ type: PlayEarningsRow.TransactionType, _ amount: Int64) -> EarningsRow {
      EarningsRow(
        orderId: sale.orderId, at: sale.at, month: sale.month, type: type, product: sale.product,
        country: sale.country, device: sale.device, amount: amount)
    }
    if sale.refund { return [row(.chargeRefund, -item), row(.googleFeeRefund, fee)] }
    return [row(.charge, charge ?? item), row(.googleFee, -fee)]
  }

  /// The earnings rows with the Play plants: 2 orders left out (`missing_in_earnings`), 2 orders no
  /// sales row has (`missing_in_sales`), 2 charges of 10 % more than the item price (`amount_differs`),
  /// 2 fees at the other rate (`fee_differs`). Planted orders have one sales row (a charge) in their
  /// month; those that change a cell each have a cell of their own.
  func plantPlay(_ ids: inout DemoIdentifiers) throws -> [EarningsRow] {
    var rng = DemoRandom(seed: seed, stream: 0x71E0_9A1A_0000_0000)
    var salesPerOrder: [String: Int] = [:]
    for s in playSales where s.inSales { salesPerOrder["\(s.orderId) \(s.month)", default: 0] += 1 }
    // The orders and cells of refunds one report shows are left alone: their rows stay as written.
    let oneSided = playSales.filter(\.isOneSided)
    let oneSidedOrders = Set(oneSided.map(\.orderId))
    let oneSidedCells = Set(oneSided.map(\.cell))
    var candidates = playSales.indices.filter {
      !playSales[$0].refund && !playSales[$0].inExperiment
        && salesPerOrder["\(playSales[$0].orderId) \(playSales[$0].month)"] == 1
        && !oneSidedOrders.contains(playSales[$0].orderId) && !oneSidedCells.contains(playSales[$0].cell)
    }
    candidates.sort {
      (playSales[$0].month, playSales[$0].orderId) < (playSales[$1].month, playSales[$1].orderId)
    }
    rng.shuffle(&candidates)
    var usedCells: Set<CellKey> = []
    func take(ownCell: Bool) throws -> Int {
      guard
        let position = candidates.firstIndex(where: { !ownCell || !usedCells.contains(playSales[$0].cell) })
      else {
        throw DemoError.inconsistentTruth(
          "too few Play sales in the earnings months to plant tie-out differences")
      }
      let index = candidates.remove(at: position)
      if ownCell { usedCells.insert(playSales[index].cell) }
      return index
    }
    let missing = Set([try take(ownCell: true), try take(ownCell: true)])
    let amounts = Set([try take(ownCell: true), try take(ownCell: true)])
    let fees = Set([try take(ownCell: false), try take(ownCell: false)])
    let templates = [try take(ownCell: true), try take(ownCell: true)]
    var rows: [EarningsRow] = []
    for (index, sale) in playSales.enumerated() where !missing.contains(index) && sale.inEarnings {
      if amounts.contains(index) {
        let item = sale.country.playAmounts(sale.product.tier).item
        rows += earningsRows(sale, charge: item + max(1, item / 10))
      } else if fees.contains(index) {
        rows += earningsRows(sale, bp: DemoStoreReports.feeBp(sale.product) == 1500 ? 3000 : 1500)
      } else {
        rows += earningsRows(sale)
      }
    }
    for index in templates {
      var fake = playSales[index]
      fake.orderId = try ids.playOrder(&rng)
      let later = fake.at.adding(ms: 17_000)
      fake.at = DemoCalendar.date(later).month == fake.month.month ? later : fake.at.adding(ms: -17_000)
      rows += earningsRows(fake)
    }
    return rows
  }

  /// The Play cells and orders the rows as written give against the sales rows, non-`match` only.
  func playTruth(_ rows: [EarningsRow]) throws -> (cells: [PlantedTieOutCell], orders: [PlantedTieOutOrder]) {
    var ledger: [CellKey: Money] = [:]
    var report: [CellKey: Money] = [:]
    var orders: [String: PlayOrderSides] = [:]
    let item = { (s: PlaySale) in s.country.playAmounts(s.product.tier).item }
    for s in playSales where s.inSales {
      let sign: Int64 = s.refund ? -1 : 1
      ledger[s.cell, default: Money()].units += sign
      ledger[s.cell, default: Money()].gross += sign * item(s)
      let key = "\(s.orderId)\t\(s.month)"
      orders[key, default: PlayOrderSides()].sales += sign * item(s)
      orders[key, default: PlayOrderSides()].inSales = true
      orders[key, default: PlayOrderSides()].product = s.product
      if s.refund {
        orders[key, default: PlayOrderSides()].salesRefunds += 1
      } else {
        orders[key, default: PlayOrderSides()].salesCharges += 1
      }
    }
    for r in rows {
      let key = "\(r.orderId)\t\(r.month)"
      orders[key, default: PlayOrderSides()].inEarnings = true
      switch r.type {
      case .charge, .chargeRefund:
        report[r.cell, default: Money()].units += r.type == .charge ? 1 : -1
        report[r.cell, default: Money()].gross += r.amount
        orders[key, default: PlayOrderSides()].charge += r.amount
        if r.type == .charge {
          orders[key, default: PlayOrderSides()].earningsCharges += 1
        } else {
          orders[key, default: PlayOrderSides()].earningsRefunds += 1
        }
      case .googleFee, .googleFeeRefund: orders[key, default: PlayOrderSides()].fee -= r.amount
      default: break
      }
      if !(orders[key]?.inSales ?? false) { orders[key, default: PlayOrderSides()].product = r.product }
    }
    var cells: [PlantedTieOutCell] = []
    for c in Set(report.keys).union(ledger.keys) {
      let status = DemoStoreReports.status(report: report[c] ?? Money(), ledger: ledger[c] ?? Money())
      if status != .match { cells.append(planted(c, status, .playEarnings)) }
    }
    var planted: [PlantedTieOutOrder] = []
    for (key, o) in orders {
      let parts = key.split(separator: "\t")
      let status = o.status
      guard status != .match, let month = CivilDate.parse(String(parts[1])) else { continue }
      planted.append(PlantedTieOutOrder(orderId: String(parts[0]), month: month, status: status))
    }
    try verifyPlay(cells: cells, orders: planted)
    return (cells.sorted(), planted.sorted())
  }
}
