package import StoreReconCore

/// A tie-out cell the demo world was built to contain with a difference (a status other than `match`).
package struct PlantedTieOutCell: Hashable, Sendable, Comparable {
  package var store: Store
  package var source: StoreReportKind
  /// Apple: the Pacific report day. Play: the first day of the earnings month.
  package var day: CivilDate
  package var productId: String
  /// ISO 3166 alpha-2.
  package var country: String
  /// ISO 4217 code of the customer's currency.
  package var currency: String
  package var status: TieOutCell.Status

  /// Creates a planted cell.
  package init(
    store: Store, source: StoreReportKind, day: CivilDate, productId: String, country: String,
    currency: String, status: TieOutCell.Status
  ) {
    self.store = store
    self.source = source
    self.day = day
    self.productId = productId
    self.country = country
    self.currency = currency
    self.status = status
  }

  /// The run's cell as a planted one (its key and status).
  package init(_ cell: TieOutCell) {
    self.init(
      store: cell.store, source: cell.source, day: cell.day, productId: cell.productId, country: cell.country,
      currency: cell.currency.code, status: cell.status)
  }

  /// `2026-11-03` for Apple days, `2026-10` for Play months.
  package var dayText: String {
    let text = day.description
    return source == .playEarnings ? String(text.prefix(7)) : text
  }

  /// Orders by store, source, day, product, country, currency, status.
  package static func < (lhs: PlantedTieOutCell, rhs: PlantedTieOutCell) -> Bool {
    (lhs.store.rawValue, lhs.source.rawValue, lhs.day, lhs.productId, lhs.country, lhs.currency)
      < (rhs.store.rawValue, rhs.source.rawValue, rhs.day, rhs.productId, rhs.country, rhs.currency)
      || ((lhs.store, lhs.source, lhs.day, lhs.productId, lhs.country, lhs.currency)
        == (rhs.store, rhs.source, rhs.day, rhs.productId, rhs.country, rhs.currency)
        && lhs.status < rhs.status)
  }

  /// One line for the check's output.
  package var line: String {
    "\(store.rawValue) \(source.rawValue) \(dayText) \(productId) \(country) \(currency) \(status.rawValue)"
  }
}

/// A Google Play order of an earnings month, or a Stripe charge or refund, the demo world was built to
/// tie out with a difference.
package struct PlantedTieOutOrder: Hashable, Sendable, Comparable {
  /// The order id as written (renewals keep their `..N`); Stripe's charge or refund id.
  package var orderId: String
  /// The earnings month (first day); Stripe: the charge's or refund's UTC month.
  package var month: CivilDate
  package var status: TieOutOrder.Status
  /// `play`, or `stripe`.
  package var store: Store = .play

  /// Creates a planted order.
  package init(orderId: String, month: CivilDate, status: TieOutOrder.Status, store: Store = .play) {
    self.orderId = orderId
    self.month = month
    self.status = status
    self.store = store
  }

  /// The run's order row as a planted one.
  package init(_ order: TieOutOrder) {
    self.init(orderId: order.orderId, month: order.month, status: order.status, store: order.store)
  }

  /// `2026-10`.
  package var monthText: String { String(month.description.prefix(7)) }

  /// Orders by month, order id, status.
  package static func < (lhs: PlantedTieOutOrder, rhs: PlantedTieOutOrder) -> Bool {
    (lhs.month, lhs.orderId) < (rhs.month, rhs.orderId)
      || ((lhs.month, lhs.orderId) == (rhs.month, rhs.orderId) && lhs.status < rhs.status)
  }

  /// One line for the check's output.
  package var line: String { "\(store.rawValue) order \(orderId) \(monthText) \(status.rawValue)" }
}

/// A negative control: a cell that must be in the run's tie-out with status `match` (a charge near the
/// Pacific midnight in UTC, a refund on another day than its charge).
package struct DemoTieOutControl: Hashable, Sendable, Comparable {
  /// The cell (status `match`).
  package var cell: PlantedTieOutCell
  /// What the control tests, with the transaction id and its UTC instant.
  package var what: String

  package init(cell: PlantedTieOutCell, what: String) {
    self.cell = cell
    self.what = what
  }

  package static func < (lhs: DemoTieOutControl, rhs: DemoTieOutControl) -> Bool {
    (lhs.cell, lhs.what) < (rhs.cell, rhs.what)
  }
}

/// The tie-out the demo world's store reports were built to give: every non-`match` cell and order.
package struct DemoTieOutTruth: Sendable {
  /// Relative path of the planted cells.
  package static let cellsPath = "truth/planted_tieout.csv"
  /// Relative path of the planted Play orders.
  package static let ordersPath = "truth/planted_tieout_orders.csv"
  /// Relative path of the negative controls.
  package static let controlsPath = "truth/tieout_controls.csv"

  /// The three truth files.
  /// The planted payout differences.
  package static let payoutsPath = "truth/planted_payouts.csv"
  package static let paths = [cellsPath, ordersPath, controlsPath, payoutsPath]

  /// Cells with a planted difference, sorted.
  package var cells: [PlantedTieOutCell] = []
  /// Orders with a planted difference, sorted.
  package var orders: [PlantedTieOutOrder] = []
  /// Cells that must be present and match, sorted.
  package var controls: [DemoTieOutControl] = []
  /// The report files written (Apple daily sales reports, Play earnings reports), relative paths.
  package var reportFiles: [String] = []
  /// The payouts.csv lines planted with a difference.
  package var payouts: [PlantedPayout] = []

  /// No store reports.
  package init() {}

  /// Number of planted differences (cells and orders).
  package var plantedCount: Int { cells.count + orders.count }

  /// `truth/planted_tieout.csv`.
  func payoutsCSV() -> String {
    "store,payout_id,region,status\n"
      + payouts.map { "\($0.store.rawValue),\($0.payoutId),\($0.region),\($0.status.rawValue)\n" }.joined()
  }

  func cellsCSV() -> String {
    var text = "store,source,day,product_id,country,currency,status\n"
    for c in cells {
      text +=
        "\(c.store.rawValue),\(c.source.rawValue),\(c.dayText),\(c.productId),\(c.country),\(c.currency)"
      text += ",\(c.status.rawValue)\n"
    }
    return text
  }

  /// `truth/planted_tieout_orders.csv`.
  func ordersCSV() -> String {
    var text = "order_id,month,status\n"
    for o in orders { text += "\(o.orderId),\(o.monthText),\(o.status.rawValue)\n" }
    return text
  }

  /// `truth/tieout_controls.csv`.
  func controlsCSV() -> String {
    var text = "store,source,day,product_id,country,currency,status,what\n"
    for control in controls {
      let c = control.cell
      text +=
        "\(c.store.rawValue),\(c.source.rawValue),\(c.dayText),\(c.productId),\(c.country),\(c.currency)"
      text += ",\(c.status.rawValue),\"\(control.what)\"\n"
    }
    return text
  }
}
