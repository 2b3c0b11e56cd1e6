import Testing

@testable import StoreReconCore

/// Stripe's charges and refunds against its balance report (docs/tieout.md#stripe-charges-and-refunds).
@Suite struct StripeTieOutTests {
  static let usd = Currency.named("USD")!
  static let eur = Currency.named("EUR")!
  static let day = CivilDate(year: 2026, month: 11, day: 3).startUTC

  static func at(_ hours: Int64) -> Instant { day.adding(ms: hours * 3_600_000) }

  static func charge(_ id: String, _ amount: Int64, at hours: Int64, currency: Currency = usd)
    -> StripeFeedLine
  {
    var line = StripeFeedLine(
      kind: .charge, id: id, chargeId: id, amountMinor: amount, currency: currency, at: at(hours))
    line.productId = "pro_monthly"
    return line
  }

  static func row(
    _ id: String, charge: String, gross: Int64, fee: Int64, at hours: Int64, category: String = "charge",
    source: String? = nil, currency: Currency = usd
  ) -> StripeBalanceRow {
    var row = StripeBalanceRow(
      id: id, created: at(hours), currency: currency, grossMinor: gross, feeMinor: fee, netMinor: gross - fee,
      category: category, origin: Origin(file: 1, line: 2))
    row.chargeId = charge
    row.sourceId = source ?? charge
    return row
  }

  static var settings: TieOutSettings {
    var s = TieOutSettings()
    s.fees.stripeBp = 290
    return s
  }

  static func statuses(_ orders: [TieOutOrder]) -> [String: TieOutOrder.Status] {
    Dictionary(uniqueKeysWithValues: orders.map { ($0.orderId, $0.status) })
  }

  @Test func eachStatusOnceAndAFeeOffByOneIsAMatch() {
    let feed = [
      Self.charge("ch_match", 1000, at: 1), Self.charge("ch_rounding", 1000, at: 2),
      Self.charge("ch_missing", 1000, at: 3), Self.charge("ch_amount", 1000, at: 4),
      Self.charge("ch_fee", 1000, at: 5),
      StripeFeedLine(
        kind: .refund, id: "re_1", chargeId: "ch_match", amountMinor: -400, currency: Self.usd, at: Self.at(6)
      ),
    ]
    let rows = [
      Self.row("txn_1", charge: "ch_match", gross: 1000, fee: 29, at: 1),
      Self.row("txn_2", charge: "ch_rounding", gross: 1000, fee: 30, at: 2),
      Self.row("txn_4", charge: "ch_amount", gross: 900, fee: 29, at: 4),
      Self.row("txn_5", charge: "ch_fee", gross: 1000, fee: 59, at: 5),
      Self.row("txn_6", charge: "ch_match", gross: -400, fee: 0, at: 6, category: "refund", source: "re_1"),
      Self.row("txn_7", charge: "ch_web_only", gross: 500, fee: 15, at: 7),
      Self.row("txn_8", charge: "", gross: -50, fee: 0, at: 7, category: "fee", source: "fee_1"),
    ]
    let orders = StripeTieOut.orders(
      feed: feed, rows: rows, settings: Self.settings, asOf: Self.at(48))
    #expect(
      Self.statuses(orders) == [
        "ch_match": .match, "ch_rounding": .match, "ch_missing": .missingInReport,
        "ch_amount": .amountDiffers,
        "ch_fee": .feeDiffers, "re_1": .match, "ch_web_only": .missingInFeed,
      ])
    let fee = orders.first { $0.orderId == "ch_fee" }
    #expect(fee?.estimatedFeeMinor == 29 && fee?.actualFeeMinor == 59 && fee?.store == .stripe)
    #expect(orders.first { $0.orderId == "ch_amount" }?.earningsChargeMinor == 900)
    #expect(orders.map(\.orderId) == orders.map(\.orderId).sorted())
  }

  @Test func onlyTheReportsIntervalIsTiedOut() {
    // The report's rows run from hour 10 to hour 20: a charge before, and one after (a month not over
    // yet), wait for the report that covers them; a row after T is not tied out.
    let feed = [
      Self.charge("ch_before", 1000, at: 9), Self.charge("ch_in", 1000, at: 12),
      Self.charge("ch_after", 1000, at: 21),
    ]
    let rows = [
      Self.row("txn_a", charge: "ch_first", gross: 100, fee: 3, at: 10),
      Self.row("txn_b", charge: "ch_in", gross: 1000, fee: 29, at: 12),
      Self.row("txn_c", charge: "ch_last", gross: 100, fee: 3, at: 20),
      Self.row("txn_d", charge: "ch_past_t", gross: 100, fee: 3, at: 30),
    ]
    let orders = StripeTieOut.orders(feed: feed, rows: rows, settings: Self.settings, asOf: Self.at(24))
    #expect(
      Self.statuses(orders) == ["ch_first": .missingInFeed, "ch_in": .match, "ch_last": .missingInFeed])
    #expect(StripeTieOut.orders(feed: feed, rows: [], settings: Self.settings, asOf: Self.at(24)).isEmpty)
  }

  @Test func anotherBalanceCurrencyTiesOutThroughTheStatedRateHalfEven() {
    // A 10.00 EUR charge on a USD balance: 10.85 USD gross, 0.61 USD fee at exchange_rate 1.085.
    var converted = Self.row("txn_1", charge: "ch_eur", gross: 1085, fee: 61, at: 1)
    converted.exchangeRate = "1.085"
    // 0.61 / 1.085 = 0.5622… EUR: 0.56; the schedule's 2.9 % of 10.00 is 0.29, so the fee differs.
    let feed = [Self.charge("ch_eur", 1000, at: 1, currency: Self.eur)]
    let orders = StripeTieOut.orders(
      feed: feed, rows: [converted], settings: Self.settings, asOf: Self.at(48))
    #expect(orders.first?.earningsChargeMinor == 1000)
    #expect(orders.first?.actualFeeMinor == 56)
    #expect(orders.first?.status == .feeDiffers)
    // customer_facing_amount, where written in the charge's currency, is taken as it is.
    var facing = Self.row("txn_1", charge: "ch_eur", gross: 1085, fee: 31, at: 1)
    facing.customerFacingMinor = 1000
    facing.customerFacingCurrency = Self.eur
    let byFacing = StripeTieOut.orders(feed: feed, rows: [facing], settings: Self.settings, asOf: Self.at(48))
    #expect(byFacing.first?.status == .match)
    #expect(byFacing.first?.actualFeeMinor == 29)  // 31 × 1000 / 1085 = 28.57…
    // Neither stated: the amounts cannot be compared.
    let bare = Self.row("txn_1", charge: "ch_eur", gross: 1085, fee: 31, at: 1)
    let unstated = StripeTieOut.orders(feed: feed, rows: [bare], settings: Self.settings, asOf: Self.at(48))
    #expect(unstated.first?.status == .amountDiffers)
  }

  @Test func halfEvenDivisionByTheRate() {
    let rate = StripeRate("2")
    // 5 / 2 = 2.5 → 2 (even); 7 / 2 = 3.5 → 4; −5 / 2 = −2.5 → −2.
    #expect(rate?.toCharge(5, from: Self.usd, to: Self.eur) == 2)
    #expect(rate?.toCharge(7, from: Self.usd, to: Self.eur) == 4)
    #expect(rate?.toCharge(-5, from: Self.usd, to: Self.eur) == -2)
    #expect(StripeRate("0") == nil && StripeRate("-1.2") == nil && StripeRate("1.2.3") == nil)
    // JPY balance for a USD charge: 1500 JPY at 150.0 is 10.00 USD.
    #expect(StripeRate("150.0")?.toCharge(1500, from: Currency.named("JPY")!, to: Self.usd) == 1000)
  }

  @Test func aBalanceTransactionReadTwiceCountsOnceAndAChangedOneConflicts() {
    var same = [
      Self.row("txn_1", charge: "ch_1", gross: 1000, fee: 29, at: 1),
      Self.row("txn_2", charge: "ch_2", gross: 1000, fee: 29, at: 1),
    ]
    var copy = same[0]
    copy.origin = Origin(file: 2, line: 7)
    same.append(copy)
    guard case .success(let dropped) = StripeBalanceCopies.readOnce(&same) else {
      Issue.record("a copy is no conflict")
      return
    }
    #expect(dropped == [2: 1] && same.map(\.id) == ["txn_1", "txn_2"])
    var changed = [Self.row("txn_1", charge: "ch_1", gross: 1000, fee: 29, at: 1)]
    var other = Self.row("txn_1", charge: "ch_1", gross: 1001, fee: 29, at: 1)
    other.origin = Origin(file: 2, line: 3)
    changed.append(other)
    guard case .failure(let conflict) = StripeBalanceCopies.readOnce(&changed) else {
      Issue.record("a changed row is a conflict")
      return
    }
    #expect(conflict.id == "txn_1" && conflict.second == Origin(file: 2, line: 3))
  }
}

/// Settled Stripe proceeds: the report's actual net by charge id, or by the invoice a subscription's
/// charge belongs to (docs/tieout.md#proceeds-in-revenuecsv).
@Suite struct StripeSettledTests {
  @Test func theActualNetByChargeOrInvoiceAndTheRefundsSide() {
    let rows = [
      StripeTieOutTests.row("txn_1", charge: "ch_1", gross: 1000, fee: 59, at: 1),
      StripeTieOutTests.row(
        "txn_2", charge: "ch_1", gross: -400, fee: 0, at: 2, category: "refund", source: "re_1"),
      StripeTieOutTests.row(
        "txn_3", charge: "ch_1", gross: -600, fee: 1500, at: 3, category: "dispute", source: "du_1"),
    ]
    var line = StripeTieOutTests.charge("ch_1", 1000, at: 1)
    line.invoiceId = "in_1"
    let settled = StripeSettled(rows, feed: [line])
    let usd = StripeTieOutTests.usd
    #expect(settled.net("ch_1", currency: usd, refund: false) == 941)
    #expect(settled.net("in_1", currency: usd, refund: false) == 941)
    #expect(settled.net("in_1", currency: usd, refund: true) == -2500)
    #expect(settled.net("in_2", currency: usd, refund: false) == nil)
    // Without the feed's link the invoice is not known, and the charge falls back to the estimate.
    #expect(StripeSettled(rows).net("in_1", currency: usd, refund: false) == nil)
  }

  @Test("the orders come out by month, then id, as the sort of (month, id) pairs puts them")
  func ordersSortByMonthThenId() {
    var orders: [TieOutOrder] = []
    let ids = [
      "ch_3Pq", "re_1Ab", "ch_1Zz", "ch_3Pq", "in_9", "ch_10", "ch_2", "re_1Ab0000000000000000000000000000x",
    ]
    for (n, id) in ids.enumerated() {
      for month in [11, 9, 10] where (n + month) % 2 == 0 || month == 10 {
        var order = TieOutOrder(
          orderId: id, month: CivilDate(year: 2026, month: month, day: 1), productId: "p\(n)",
          currency: Currency.named("USD")!)
        order.store = .stripe
        orders.append(order)
      }
    }
    let expected = orders.enumerated().sorted { a, b in
      (a.element.month, a.element.orderId, a.offset) < (b.element.month, b.element.orderId, b.offset)
    }.map { "\($0.element.month) \($0.element.orderId) \($0.element.productId)" }
    let got = StripeTieOut.byMonthThenId(orders).map { "\($0.month) \($0.orderId) \($0.productId)" }
    #expect(got == expected)
  }
}
