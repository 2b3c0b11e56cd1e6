/// One tie-out cell: what a store's own report says against what the transaction feed shows for the
/// same (period, product, country, currency).
///
/// Apple cells come from Summary Sales reports (one per Pacific-Time day a report covers); Play cells
/// from earnings reports (one per earnings month). Units and gross count priced units only; free
/// units (a customer price of 0: trials, offer codes) are counted apart.
package struct TieOutCell: Sendable, Equatable {
  /// What the difference says.
  package enum Status: String, Sendable, CaseIterable, Comparable {
    /// Units and gross agree.
    case match
    /// The report has more units than the feed: charges the app's server never saw.
    case reportMore = "report_more"
    /// The feed has units the store does not report: a forged or duplicated transaction, or a lag.
    case reportLess = "report_less"
    /// The same units at other money.
    case priceDiffers = "price_differs"

    package static func < (lhs: Status, rhs: Status) -> Bool {
      (Status.allCases.firstIndex(of: lhs) ?? 0) < (Status.allCases.firstIndex(of: rhs) ?? 0)
    }
  }

  package var store: Store
  /// The report the cell comes from (`apple_sales`, `play_earnings`).
  package var source: StoreReportKind
  /// Apple: the report day. Play: the first day of the earnings month (rendered `YYYY-MM`).
  package var day: CivilDate
  package var productId: String
  /// ISO 3166 alpha-2 (Apple's alpha-3 storefronts mapped), upper case; empty when unknown.
  package var country: String
  /// The customer's (buyer's) currency.
  package var currency: Currency
  package var reportUnits: Int64 = 0
  package var ledgerUnits: Int64 = 0
  /// Σ units × customer price (Apple, tax included) or Σ Charge (Play, before tax), minor units.
  package var reportGrossMinor: Int64 = 0
  package var ledgerGrossMinor: Int64 = 0
  /// What the report says the developer gets, in ``proceedsCurrency``.
  package var reportProceedsMinor: Int64 = 0
  /// The fee schedule's estimate of the feed's proceeds, in ``currency``.
  package var ledgerProceedsMinor: Int64 = 0
  /// The currency of ``reportProceedsMinor`` (Apple's Currency of Proceeds; Play: the buyer currency).
  package var proceedsCurrency: Currency
  /// Units at a customer price of 0 (trials, offer codes), counted apart from the money.
  package var reportFreeUnits: Int64 = 0
  package var ledgerFreeUnits: Int64 = 0
  package var status: Status = .match
  /// The difference in words.
  package var detail: String = ""

  /// Creates an empty cell.
  package init(
    store: Store, source: StoreReportKind, day: CivilDate, productId: String, country: String,
    currency: Currency
  ) {
    self.store = store
    self.source = source
    self.day = day
    self.productId = productId
    self.country = country
    self.currency = currency
    self.proceedsCurrency = currency
  }

  /// `report − ledger` units.
  package var unitsDiff: Int64 { reportUnits - ledgerUnits }
  /// `report − ledger` gross.
  package var grossDiffMinor: Int64 { reportGrossMinor - ledgerGrossMinor }
}

/// One Google Play order of an earnings month: its sales-report money against its earnings rows.
package struct TieOutOrder: Sendable, Equatable {
  /// What the difference says.
  package enum Status: String, Sendable, CaseIterable, Comparable {
    case match
    /// The sales report charged the order in an earnings month; the earnings report has no row of it.
    case missingInEarnings = "missing_in_earnings"
    /// The earnings report names an order no sales report row has.
    case missingInSales = "missing_in_sales"
    /// Earnings `Charge` (net of `Charge refund`) ≠ sales `Item Price` (net of `Refund` rows).
    case amountDiffers = "amount_differs"
    /// The actual Google fee differs from the configured fee schedule's estimate by more than one minor unit.
    case feeDiffers = "fee_differs"
    /// The sales report refunds the order in the month (a `Refund` row); the earnings report, which has
    /// the order or only its refund, has no `Charge refund` of it.
    case refundNotInEarnings = "refund_not_in_earnings"
    /// The earnings report refunds the order in the month (a `Charge refund`); the sales report has no
    /// `Refund` row of it.
    case refundNotInSales = "refund_not_in_sales"
    /// Stripe: the feed's charge or refund has no balance transaction in the balance report, which covers
    /// its instant.
    case missingInReport = "missing_in_report"
    /// Stripe: the balance report has a charge or refund the feed (`stripe.objects`) does not.
    case missingInFeed = "missing_in_feed"

    package static func < (lhs: Status, rhs: Status) -> Bool {
      (Status.allCases.firstIndex(of: lhs) ?? 0) < (Status.allCases.firstIndex(of: rhs) ?? 0)
    }
  }

  package var store: Store = .play
  /// The order id (renewals keep their `..N`), packed where it packs.
  package var order: PlayOrderKey
  /// The order id as written.
  package var orderId: String { order.string }
  /// The earnings month (first day).
  package var month: CivilDate
  package var productId: String
  package var currency: Currency
  /// Σ sales `Item Price` of the order's `Charged` rows − its `Refund` rows, minor units (before tax).
  package var salesItemMinor: Int64 = 0
  /// Σ earnings `Charge` + `Charge refund` (buyer currency, minor units).
  package var earningsChargeMinor: Int64 = 0
  /// The fee schedule's fee on the sales item price (positive).
  package var estimatedFeeMinor: Int64 = 0
  /// −Σ earnings `Google fee` + `Google fee refund` (positive: what Google kept).
  package var actualFeeMinor: Int64 = 0
  package var status: Status = .match
  package var detail: String = ""

  /// Creates an empty order row.
  package init(orderId: String, month: CivilDate, productId: String, currency: Currency) {
    self.init(order: PlayOrderKey(orderId), month: month, productId: productId, currency: currency)
  }

  /// Creates an empty order row from its order id's key.
  package init(order: PlayOrderKey, month: CivilDate, productId: String, currency: Currency) {
    self.order = order
    self.month = month
    self.productId = productId
    self.currency = currency
  }
}

/// The tie-out of one run: the cells and the Play orders, sorted for the reports.
package struct TieOut: Sendable, Equatable {
  /// Sorted by store, source, day, product, country, currency.
  package var cells: [TieOutCell] = []
  /// Sorted by month, order id.
  package var orders: [TieOutOrder] = []
  /// Report days (Apple) and earnings months (Play, first day) a report covers that end after T: the
  /// feed cannot show their last hours yet, so they are not tied out (a later run ties them out).
  package var skippedAppleDays: [CivilDate] = []
  package var skippedPlayMonths: [CivilDate] = []
  /// The first cell or order whose sums do not fit an `Int64`, named; the run stops with exit 65
  /// rather than report a wrong sum (docs/inputs.md#amounts-beyond-the-bound).
  package var overflow: String?

  /// An empty tie-out (no store report read).
  package init() {}

  /// Creates a tie-out from its rows.
  package init(cells: [TieOutCell], orders: [TieOutOrder]) {
    self.cells = cells
    self.orders = orders
  }
}
