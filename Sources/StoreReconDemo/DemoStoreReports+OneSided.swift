import StoreReconCore

/// The Play orders' sides and statuses, and the plan the Play tie-out truth is checked against, with
/// the refunds one report shows (docs/tieout.md#refunds-one-report-shows).
extension DemoStoreReports {
  /// What the sales rows and the earnings rows of one order in one month say.
  struct PlayOrderSides {
    var sales: Int64 = 0
    var inSales = false
    var charge: Int64 = 0
    var fee: Int64 = 0
    var inEarnings = false
    var product = DemoProduct.playMonthly
    /// `Charged` and `Refund` rows of the sales report; `Charge` and `Charge refund` rows of the earnings.
    var salesCharges = 0
    var salesRefunds = 0
    var earningsCharges = 0
    var earningsRefunds = 0

    /// The order's status: a refund one report shows and the other lacks first, then where it is
    /// missing, then whether its charge, else its fee differs.
    var status: TieOutOrder.Status {
      if salesRefunds > 0 && earningsRefunds == 0 && (inEarnings || salesCharges == 0) {
        return .refundNotInEarnings
      }
      if earningsRefunds > 0 && salesRefunds == 0 && (inSales || earningsCharges == 0) {
        return .refundNotInSales
      }
      if !inEarnings { return .missingInEarnings }
      if !inSales { return .missingInSales }
      if sales != charge { return .amountDiffers }
      let estimate = DemoStoreReports.fee(sales, bp: DemoStoreReports.feeBp(product))
      return abs(fee - estimate) > 1 ? .feeDiffers : .match
    }
  }

  /// Checks the Play truth against the plan: the planned cells outside the cells of refunds one report
  /// shows, and the planned orders plus one `refund_not_in_…` order per such refund.
  func verifyPlay(cells: [PlantedTieOutCell], orders: [PlantedTieOutOrder]) throws {
    let oneSided = playSales.filter(\.isOneSided)
    let oneSidedCells = Set(oneSided.map(\.cell))
    let planned = cells.filter {
      !oneSidedCells.contains(
        CellKey(day: $0.day, productId: $0.productId, country: $0.country, currency: $0.currency))
    }
    try DemoStoreReports.verify(
      planned.map(\.status), planned: DemoStoreReports.playCellPlan, "Play tie-out cells")
    var orderPlan = DemoStoreReports.playOrderPlan
    for s in Set(oneSided.map { "\($0.orderId)\t\($0.month)\t\($0.inSales)" }).sorted() {
      orderPlan[s.hasSuffix("true") ? .refundNotInEarnings : .refundNotInSales, default: 0] += 1
    }
    try DemoStoreReports.verify(orders.map(\.status), planned: orderPlan, "Play tie-out orders")
  }
}
