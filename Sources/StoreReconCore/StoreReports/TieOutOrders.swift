/// The Play orders of the earnings months while both sides add up.
struct TieOutOrderTable {
  struct Key: Hashable {
    var order: PlayOrderKey
    var month: CivilDate
  }

  struct Sides {
    var salesItem: Int64 = 0
    var estimatedFee: Int64 = 0
    var salesRows = 0
    var salesProduct: String?
    var salesCurrency: Currency?
    /// The sales report's `Refund` rows of the order (its other rows are charges).
    var salesRefunds = 0
    /// The earnings report's `Charge` and `Charge refund` rows of the order.
    var earningsCharges = 0
    var earningsRefunds = 0
    var earningsCharge: Int64 = 0
    var earningsFee: Int64 = 0
    var earningsRows = 0
    var earningsProduct: String?
    var earningsCurrency: Currency?
    /// Whether a sum overflowed an `Int64` (docs/inputs.md#amounts-beyond-the-bound).
    var overflowed = false
  }

  var table: [Key: Sides] = [:]

  /// The first order (by id) whose sums overflowed, named for the one-line error; nil when none did.
  func overflowedOrder() -> String? {
    table.filter(\.value.overflowed).keys.map { "Play order \($0.order.string) of \($0.month)" }.min()
  }

  /// An earnings row of an order (an `Adjustment` names no order: it is left to the cells).
  mutating func addReport(_ row: PlayEarningsRow) {
    guard row.type != .adjustment else { return }
    // One look-up, the sides changed in place (a copy out and back costs a second hash and the
    // retains of the texts inside).
    TieOutOrderTable.addEarnings(
      row, to: &table[Key(order: row.order, month: row.month), default: Sides()])
  }

  static func addEarnings(_ row: PlayEarningsRow, to sides: inout Sides) {
    switch row.type {
    case .charge, .chargeRefund:
      sides.earningsCharge.add(row.buyerAmountMinor, overflow: &sides.overflowed)
      if row.type == .charge { sides.earningsCharges += 1 } else { sides.earningsRefunds += 1 }
    case .googleFee, .googleFeeRefund:
      sides.earningsFee.add(row.buyerAmountMinor, overflow: &sides.overflowed)
    default: break
    }
    sides.earningsRows += 1
    if sides.earningsProduct == nil { sides.earningsProduct = row.productId }
    if sides.earningsCurrency == nil { sides.earningsCurrency = row.buyerCurrency }
  }

  /// The sales rows of the earnings months.
  mutating func addFeed(_ lines: [TieOutFeed.OrderLine]) {
    for line in lines {
      TieOutOrderTable.addSales(
        line, to: &table[Key(order: line.order, month: line.month), default: Sides()])
    }
  }

  static func addSales(_ line: TieOutFeed.OrderLine, to sides: inout Sides) {
    sides.salesItem.add(line.item, overflow: &sides.overflowed)
    sides.estimatedFee.add(line.fee, overflow: &sides.overflowed)
    sides.salesRows += 1
    if line.item < 0 { sides.salesRefunds += 1 }
    if sides.salesProduct == nil { sides.salesProduct = line.product }
    if sides.salesCurrency == nil { sides.salesCurrency = line.currency }
  }

  /// What the orders sort by, in plain numbers: the month's day number, and for a `GPA.` id its 17
  /// digits and renewal field (other ids compare by their keys).
  struct SortKey {
    var month: Int64
    var value: UInt64
    var renewal: UInt32
    var isPlayOrder: Bool
    var index: Int

    init(_ key: Key, index: Int) {
      month = key.month.daysSinceEpoch
      let packed = key.order.packed
      isPlayOrder = key.order.text == nil && packed.kind == .playOrder
      value = packed.value
      renewal = packed.meta & 0x3FFF_FFFF
      self.index = index
    }
  }

  /// The orders with their status and detail, sorted by month, then order id.
  func finished() -> [TieOutOrder] {
    // The pairs in one array, their numbers sorted (moving small numbers, not the pairs): no second
    // look-up per key.
    let pairs = Array(table)
    var order = pairs.indices.map { i in SortKey(pairs[i].key, index: i) }
    order.sort { a, b in
      if a.month != b.month { return a.month < b.month }
      if a.isPlayOrder && b.isPlayOrder {
        return a.value != b.value ? a.value < b.value : PlayOrderKey.renewalLess(a.renewal, b.renewal)
      }
      return PlayOrderKey.less(pairs[a.index].key.order, pairs[b.index].key.order)
    }
    return order.compactMap { k -> TieOutOrder? in
      let (key, sides) = pairs[k.index]
      guard let currency = sides.salesCurrency ?? sides.earningsCurrency else { return nil }
      var order = TieOutOrder(
        order: key.order, month: key.month,
        productId: sides.salesProduct ?? sides.earningsProduct ?? "", currency: currency)
      order.salesItemMinor = sides.salesItem
      order.earningsChargeMinor = sides.earningsCharge
      order.estimatedFeeMinor = sides.estimatedFee
      order.actualFeeMinor = -sides.earningsFee
      TieOutWording.judge(&order, sides)
      return order
    }
  }
}

/// Statuses and the words of the tie-out's details.
enum TieOutWording {
  /// `amount` minor units of `currency` as `4.99 USD`.
  static func money(_ amount: Int64, _ currency: Currency) -> String {
    "\(currency.format(amount)) \(currency.code)"
  }

  static func units(_ n: Int64) -> String { n == 1 || n == -1 ? "\(n) unit" : "\(n) units" }

  /// The cell's status from its units and gross, and the difference in words; a `report_more` or
  /// `report_less` cell names the feed's transactions behind it (`feedIds`), or that there are none.
  static func judge(_ cell: inout TieOutCell, proceedsCurrencies: Int, feedIds: TieOutIds = TieOutIds()) {
    let c = cell.currency
    let unitsDiff = cell.unitsDiff
    var words: [String] = []
    if unitsDiff > 0 {
      cell.status = .reportMore
      words.append(
        "the store reports \(units(unitsDiff)) (\(money(cell.grossDiffMinor, c))) more than the "
          + "transaction feed shows: charges the server never saw")
    } else if unitsDiff < 0 {
      cell.status = .reportLess
      words.append(
        "the transaction feed shows \(units(-unitsDiff)) (\(money(-cell.grossDiffMinor, c))) the store "
          + "does not report: a forged or duplicated transaction, or a lag")
    } else if cell.grossDiffMinor != 0 {
      cell.status = .priceDiffers
      let more = cell.grossDiffMinor > 0 ? "more" : "less"
      words.append(
        "same \(units(cell.reportUnits)); the store's gross is \(money(abs(cell.grossDiffMinor), c)) \(more)")
    } else {
      cell.status = .match
    }
    if cell.status == .reportMore || cell.status == .reportLess {
      words.append(feedIds.text(cell.source == .playEarnings ? "feed orders" : "feed transactions"))
    }
    if cell.reportFreeUnits != 0 || cell.ledgerFreeUnits != 0 {
      let same = cell.reportFreeUnits == cell.ledgerFreeUnits
      words.append(
        "free units (price 0): report \(cell.reportFreeUnits), feed \(cell.ledgerFreeUnits)"
          + (same ? "" : " (not in the status)"))
    }
    if proceedsCurrencies > 1 { words.append("the report's proceeds are in more than one currency") }
    cell.detail = words.joined(separator: "; ")
  }

  /// A refund of the order one report of the month shows and the other does not
  /// (docs/tieout.md#refund_not_in_earnings): `nil` where both show it, neither does, or the other
  /// report lacks the whole order (`missing_in_…`).
  static func refundBehind(_ sides: TieOutOrderTable.Sides) -> TieOutOrder.Status? {
    let salesCharges = sides.salesRows - sides.salesRefunds
    if sides.salesRefunds > 0 && sides.earningsRefunds == 0 && (sides.earningsRows > 0 || salesCharges == 0) {
      return .refundNotInEarnings
    }
    if sides.earningsRefunds > 0 && sides.salesRefunds == 0
      && (sides.salesRows > 0 || sides.earningsCharges == 0)
    {
      return .refundNotInSales
    }
    return nil
  }

  /// The order's status: a refund one report shows and the other does not, else where it is missing,
  /// else whether its charge, else its fee differs.
  static func judge(_ order: inout TieOutOrder, _ sides: TieOutOrderTable.Sides) {
    let c = order.currency
    if let behind = refundBehind(sides) {
      order.status = behind
      order.detail =
        behind == .refundNotInEarnings
        ? "the sales report refunds the order (a Refund row, \(money(order.salesItemMinor, c)) net); "
          + "the earnings report of the month has no Charge refund of it"
        : "the earnings report refunds the order (a Charge refund, \(money(order.earningsChargeMinor, c)) net); "
          + "the sales report of the month has no Refund row of it"
      return
    }
    if sides.earningsRows == 0 {
      order.status = .missingInEarnings
      order.detail =
        "the sales report charged \(money(order.salesItemMinor, c)) before tax; the earnings report has no row"
      return
    }
    if sides.salesRows == 0 {
      order.status = .missingInSales
      order.detail =
        "the earnings report settles \(money(order.earningsChargeMinor, c)) for an order no sales report row has"
      return
    }
    if let sales = sides.salesCurrency, let earnings = sides.earningsCurrency, sales != earnings {
      order.status = .amountDiffers
      order.detail = "sales in \(sales.code), earnings in \(earnings.code)"
      return
    }
    let difference = order.earningsChargeMinor - order.salesItemMinor
    if difference != 0 {
      order.status = .amountDiffers
      order.detail =
        "earnings Charge \(money(order.earningsChargeMinor, c)) against sales Item Price "
        + "\(money(order.salesItemMinor, c)): \(money(difference, c))"
      return
    }
    let feeDifference = order.actualFeeMinor - order.estimatedFeeMinor
    if abs(feeDifference) > 1 {
      order.status = .feeDiffers
      order.detail =
        "Google kept \(money(order.actualFeeMinor, c)); the fee schedule says \(money(order.estimatedFeeMinor, c))"
      return
    }
    order.status = .match
    order.detail = ""
  }
}
