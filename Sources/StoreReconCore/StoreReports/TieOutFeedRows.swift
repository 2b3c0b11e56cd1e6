/// The transaction feed's side of a tie-out, by name (products, countries and currencies as text, Play
/// orders by id): what each partition of a partitioned run contributes. Adding two partitions' rows
/// (``adding(_:)``) gives what one run over both would have read.
package struct TieOutFeedRows: Sendable, Equatable {
  /// One cell's feed side.
  package struct Cell: Sendable, Equatable {
    package var source: StoreReportKind
    package var day: CivilDate
    package var productId: String
    package var country: String
    package var currency: Currency
    package var units: Int64 = 0
    package var grossMinor: Int64 = 0
    package var proceedsMinor: Int64 = 0
    package var freeUnits: Int64 = 0
    /// The transactions (Play: orders) behind it: the smallest ids and their number.
    package var ids = TieOutIds()

    /// A cell's feed side from its fields.
    package init(
      source: StoreReportKind, day: CivilDate, productId: String, country: String, currency: Currency,
      units: Int64, grossMinor: Int64, proceedsMinor: Int64, freeUnits: Int64
    ) {
      self.source = source
      self.day = day
      self.productId = productId
      self.country = country
      self.currency = currency
      self.units = units
      self.grossMinor = grossMinor
      self.proceedsMinor = proceedsMinor
      self.freeUnits = freeUnits
    }

    init(key: TieOutCellTable.Key, sums: TieOutSums, ids: TieOutIds) {
      self.init(
        source: key.source, day: key.day, productId: key.product, country: key.country,
        currency: key.currency,
        units: sums.units, grossMinor: sums.gross, proceedsMinor: sums.proceeds, freeUnits: sums.freeUnits)
      self.ids = ids
    }

    var key: TieOutCellTable.Key {
      TieOutCellTable.Key(source: source, day: day, product: productId, country: country, currency: currency)
    }

    var sums: TieOutSums {
      TieOutSums(units: units, gross: grossMinor, proceeds: proceedsMinor, freeUnits: freeUnits)
    }

    /// The cells' order in a partial: source, day, product, country, currency code.
    package static func precedes(_ a: Cell, _ b: Cell) -> Bool {
      (a.source.rawValue, a.day, a.productId, a.country, a.currency.code)
        < (b.source.rawValue, b.day, b.productId, b.country, b.currency.code)
    }
  }

  /// One Play sales row of an earnings month (item price and estimated fee, negative for a refund).
  package struct Order: Sendable, Equatable {
    package var orderId: String
    package var month: CivilDate
    package var productId: String
    package var currency: Currency
    package var itemMinor: Int64
    package var feeMinor: Int64

    /// A sales row from its fields.
    package init(
      orderId: String, month: CivilDate, productId: String, currency: Currency, itemMinor: Int64,
      feeMinor: Int64
    ) {
      self.orderId = orderId
      self.month = month
      self.productId = productId
      self.currency = currency
      self.itemMinor = itemMinor
      self.feeMinor = feeMinor
    }
  }

  /// Sorted by source, day, product, country, currency code.
  package var cells: [Cell] = []
  /// In the order the feed read them (an order's rows keep their order).
  package var orders: [Order] = []
  /// The Stripe charges and refunds of the chains read, for the tie-out against Stripe's balance report
  /// (carried only where the run reads one).
  package var stripe: [StripeFeedLine] = []

  /// No feed.
  package init() {}
}
