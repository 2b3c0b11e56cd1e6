import Foundation
import Testing

@testable import StoreReconCore
@testable import StoreReconDemo

/// One side of a Play cell or order, computed in the test from the files.
private struct PlaySide {
  var units: Int64 = 0
  var gross: Int64 = 0
}

private struct PlayOrder {
  var sales: Int64 = 0
  var inSales = false
  var charge: Int64 = 0
  var fee: Int64 = 0
  var inEarnings = false
  var subscription = true
  /// `Charged` and `Refund` rows of the sales report; `Charge` and `Charge refund` rows of the earnings.
  var salesCharges = 0
  var salesRefunds = 0
  var earningsCharges = 0
  var earningsRefunds = 0
}

private func cellStatus(_ report: PlaySide, _ ledger: PlaySide) -> String {
  if report.units > ledger.units { return "report_more" }
  if report.units < ledger.units { return "report_less" }
  return report.gross == ledger.gross ? "match" : "price_differs"
}

/// An order's tie-out status from the files (empty for `match`): a refund one report shows and the
/// other lacks first (docs/tieout.md), then where it is missing, then its charge, then its fee.
private func orderStatus(_ o: PlayOrder) -> String {
  if o.salesRefunds > 0 && o.earningsRefunds == 0 && (o.inEarnings || o.salesCharges == 0) {
    return "refund_not_in_earnings"
  }
  if o.earningsRefunds > 0 && o.salesRefunds == 0 && (o.inSales || o.earningsCharges == 0) {
    return "refund_not_in_sales"
  }
  if !o.inEarnings { return "missing_in_earnings" }
  if !o.inSales { return "missing_in_sales" }
  if o.sales != o.charge { return "amount_differs" }
  let estimate = RoundingRule.halfEven.scale(
    o.sales, numerator: o.subscription ? 1500 : 3000, denominator: 10_000)
  return abs(o.fee - estimate) > 1 ? "fee_differs" : ""
}

/// `yyyy-MM` of Unix seconds, UTC.
private func utcMonth(seconds: Int64) -> String {
  String(CivilDate(daysSinceEpoch: seconds.floorDivided(by: 86_400).quotient).description.prefix(7))
}

/// The UTC instant (ms) of an earnings row's `Transaction Date` (`Sep 3, 2026`) and `Transaction Time`
/// (`5:05:59 PM PDT`), parsed by hand.
private func earningsInstant(date: String, time: String) -> Int64? {
  let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
  let d = date.replacingOccurrences(of: ",", with: "").split(separator: " ")
  let t = time.split(separator: " ")
  guard d.count == 3, t.count == 3, let month = months.firstIndex(of: String(d[0])), let day = Int(d[1]),
    let year = Int(d[2])
  else { return nil }
  let clock = t[0].split(separator: ":").compactMap { Int64($0) }
  guard clock.count == 3, clock[0] >= 1, clock[0] <= 12 else { return nil }
  let hour = clock[0] % 12 + (t[1] == "PM" ? 12 : 0)
  let offset: Int64 = t[2] == "PDT" ? 7 : t[2] == "PST" ? 8 : 99
  guard offset != 99 else { return nil }
  let local = CivilDate(year: year, month: month + 1, day: day).startUTC.ms
  return local + ((hour + offset) * 3600 + clock[1] * 60 + clock[2]) * 1000
}

@Suite("Demo tie-out")
struct DemoTieOutTests {
  static let months: Set<String> = ["2026-08", "2026-09", "2026-10"]

  /// Ledger side from the sales reports: (cells, orders).
  private func playLedger(_ world: GeneratedWorld) throws -> ([String: PlaySide], [String: PlayOrder]) {
    var cells: [String: PlaySide] = [:]
    var orders: [String: PlayOrder] = [:]
    for path in world.salesFiles {
      for row in try world.lines(path).dropFirst() {
        let f = csvFields(row)
        guard let currency = Currency.named(f[9]), let item = try? currency.minor(decimal: f[10]),
          let seconds = Int64(f[2]), Self.months.contains(utcMonth(seconds: seconds))
        else { continue }
        let month = utcMonth(seconds: seconds)
        let sign: Int64 = f[3] == "Refund" ? -1 : 1
        let cell = "\(month) \(f[8]) \(f[16]) \(f[9])"
        cells[cell, default: PlaySide()].units += sign
        cells[cell, default: PlaySide()].gross += sign * item
        let order = "\(f[0]) \(month)"
        orders[order, default: PlayOrder()].sales += sign * item
        orders[order, default: PlayOrder()].inSales = true
        orders[order, default: PlayOrder()].subscription = f[7] == "subscription"
        if sign < 0 {
          orders[order, default: PlayOrder()].salesRefunds += 1
        } else {
          orders[order, default: PlayOrder()].salesCharges += 1
        }
      }
    }
    return (cells, orders)
  }

  @Test func playEarningsAreTheSalesRowsByTheRulesExceptThePlants() throws {
    let world = try GeneratedWorld(users: 2000)
    defer { world.remove() }
    let (ledger, salesOrders) = try playLedger(world)
    var orders = salesOrders
    var report: [String: PlaySide] = [:]
    for path in world.truth.files where path.hasPrefix("exports/play/earnings/PlayApps_") {
      let lines = try world.lines(path)
      let header = csvFields(lines[0])
      func column(_ names: String...) throws -> Int { try #require(header.firstIndex { names.contains($0) }) }
      let (type, sku, country, buyer, amount) = (
        try column("Transaction Type"), try column("Sku Id", "SKU ID"), try column("Buyer Country"),
        try column("Buyer Currency"), try column("Amount (Buyer Currency)")
      )
      let (productType, merchant, rate) = (
        try column("Product Type"), try column("Amount (Merchant Currency)"),
        try column("Currency Conversion Rate")
      )
      let digits = path.dropFirst("exports/play/earnings/PlayApps_".count).prefix(6)
      let month = "\(digits.prefix(4))-\(digits.suffix(2))"
      for row in lines.dropFirst() {
        let f = csvFields(row)
        #expect(f.count == 19, "\(row)")
        let currency = try #require(Currency.named(f[buyer]))
        let value = try currency.minor(decimal: f[amount])
        // The Pacific date and time, read back, are in the file's UTC month.
        let at = try #require(earningsInstant(date: f[1], time: f[2]), "\(row)")
        #expect(utcMonth(seconds: at / 1000) == month, "\(row)")
        // Merchant amount = buyer amount × rate, rounded to cents (exact decimal arithmetic).
        let exact = try #require(Decimal(string: f[amount])) * (try #require(Decimal(string: f[rate])))
        let usd = try #require(Decimal(string: f[merchant]))
        let half = try #require(Decimal(string: "0.005"))
        #expect(exact - usd <= half && usd - exact <= half, "\(row)")
        let order = "\(f[0]) \(month)"
        orders[order, default: PlayOrder()].inEarnings = true
        if !(orders[order]?.inSales ?? false) {
          orders[order]?.subscription = f[productType] == "subscription"
        }
        switch f[type] {
        case "Charge", "Charge refund":
          let cell = "\(month) \(f[sku]) \(f[country]) \(f[buyer])"
          report[cell, default: PlaySide()].units += f[type] == "Charge" ? 1 : -1
          report[cell, default: PlaySide()].gross += value
          orders[order, default: PlayOrder()].charge += value
          if f[type] == "Charge" {
            orders[order, default: PlayOrder()].earningsCharges += 1
          } else {
            orders[order, default: PlayOrder()].earningsRefunds += 1
          }
        case "Google fee", "Google fee refund": orders[order, default: PlayOrder()].fee -= value
        default: Issue.record("unexpected transaction type in \(row)")
        }
      }
    }
    var cellDifferences: Set<String> = []
    for key in Set(report.keys).union(ledger.keys) {
      let s = cellStatus(report[key] ?? PlaySide(), ledger[key] ?? PlaySide())
      if s != "match" { cellDifferences.insert("\(key) \(s)") }
    }
    let plantedCells = Set(
      world.truth.tieOut.cells.filter { $0.store == .play }.map {
        "\($0.dayText) \($0.productId) \($0.country) \($0.currency) \($0.status.rawValue)"
      })
    #expect(cellDifferences == plantedCells)
    var orderDifferences: Set<String> = []
    for (key, o) in orders {
      let s = orderStatus(o)
      if !s.isEmpty { orderDifferences.insert("\(key) \(s)") }
    }
    let plantedOrders = Set(
      world.truth.tieOut.orders.filter { $0.store == .play }.map {
        "\($0.orderId) \($0.monthText) \($0.status.rawValue)"
      })
    #expect(orderDifferences == plantedOrders)
  }

  @Test func plantedTruthHasExactlyThePlannedCounts() throws {
    let world = try GeneratedWorld(users: 1000)
    defer { world.remove() }
    let truth = world.truth.tieOut
    func count(_ store: Store, _ status: TieOutCell.Status) -> Int {
      truth.cells.filter { $0.store == store && $0.status == status }.count
    }
    #expect(count(.appStore, .reportMore) == 3)
    #expect(count(.appStore, .reportLess) == 3)
    #expect(count(.appStore, .priceDiffers) == 2)
    // The planned 2 of each, and the cells of the refunds one report shows (from 1,000 users, 2 of each
    // kind): 2 refunds only the sales report has (`report_more`), 2 only the earnings report has
    // (`report_less`), each in a cell of its own at this seed.
    #expect(count(.play, .reportMore) == 2 + 2)
    #expect(count(.play, .reportLess) == 2 + 2)
    #expect(count(.play, .priceDiffers) == 2)
    #expect(truth.cells.count == 18)
    for status in [TieOutOrder.Status.missingInEarnings, .missingInSales, .amountDiffers, .feeDiffers] {
      #expect(truth.orders.filter { $0.store == .play && $0.status == status }.count == 2, "\(status)")
    }
    for status in [TieOutOrder.Status.refundNotInEarnings, .refundNotInSales] {
      #expect(truth.orders.filter { $0.status == status }.count == 2, "\(status)")
    }
    // Stripe's balance report (from 1,000 users): 2 of each status.
    for status in [TieOutOrder.Status.missingInReport, .missingInFeed, .amountDiffers, .feeDiffers] {
      #expect(truth.orders.filter { $0.store == .stripe && $0.status == status }.count == 2, "\(status)")
    }
    #expect(truth.orders.count == 12 + 8)
    #expect(truth.plantedCount == 30 + 8)
    let cells = try world.lines(DemoTieOutTruth.cellsPath)
    #expect(cells.first == "store,source,day,product_id,country,currency,status")
    #expect(cells.count == 19)
    #expect(
      cells.contains { $0.hasPrefix("play,play_earnings,2026-") && $0.split(separator: ",")[2].count == 7 })
    let orders = try world.lines(DemoTieOutTruth.ordersPath)
    #expect(orders.first == "order_id,month,status")
    #expect(orders.count == 13 + 8)
    // The whole truth, given back as a run's tie-out, checks exactly.
    #expect(DemoTieOutCheck.check(Self.tieOut(truth), truth: world.truth).isExact)
  }
}

extension DemoTieOutTests {
  /// A run's tie-out that says exactly what `truth` planted, with its controls and a match cell and
  /// order besides.
  static func tieOut(_ truth: DemoTieOutTruth) -> TieOut {
    func cell(_ p: PlantedTieOutCell) -> TieOutCell {
      var c = TieOutCell(
        store: p.store, source: p.source, day: p.day, productId: p.productId, country: p.country,
        currency: Currency.named(p.currency)!)
      c.status = p.status
      return c
    }
    var cells = truth.cells.map(cell) + truth.controls.map { cell($0.cell) }
    cells.append(
      cell(
        PlantedTieOutCell(
          store: .appStore, source: .appleSales, day: CivilDate(year: 2026, month: 11, day: 2),
          productId: "com.acme.pro.yearly", country: "US", currency: "USD", status: .match)))
    var orders = truth.orders.map {
      var o = TieOutOrder(
        orderId: $0.orderId, month: $0.month, productId: "pro", currency: Currency.named("EUR")!)
      o.status = $0.status
      o.store = $0.store
      return o
    }
    orders.append(
      TieOutOrder(
        orderId: "GPA.0000-0000-0000-00000", month: CivilDate(year: 2026, month: 10, day: 1),
        productId: "pro",
        currency: Currency.named("USD")!))
    return TieOut(cells: cells, orders: orders)
  }

  /// A hand-made truth: two cells, two orders, one control.
  static let handTruth: DemoTieOutTruth = {
    var truth = DemoTieOutTruth()
    let day = CivilDate(year: 2026, month: 11, day: 3)
    let month = CivilDate(year: 2026, month: 10, day: 1)
    truth.cells = [
      PlantedTieOutCell(
        store: .appStore, source: .appleSales, day: day, productId: "com.acme.pro.monthly", country: "DE",
        currency: "EUR", status: .reportMore),
      PlantedTieOutCell(
        store: .play, source: .playEarnings, day: month, productId: "pro", country: "JP", currency: "JPY",
        status: .priceDiffers),
    ]
    truth.orders = [
      PlantedTieOutOrder(orderId: "GPA.1111-2222-3333-44444..2", month: month, status: .amountDiffers),
      PlantedTieOutOrder(orderId: "GPA.5555-6666-7777-88888", month: month, status: .missingInSales),
    ]
    truth.controls = [
      DemoTieOutControl(
        cell: PlantedTieOutCell(
          store: .appStore, source: .appleSales, day: day, productId: "com.acme.pro.monthly", country: "US",
          currency: "USD", status: .match), what: "charge at 08:30 UTC")
    ]
    return truth
  }()

  @Test func checkOfATieOutEqualToTheTruthFindsNothing() {
    let result = DemoTieOutCheck.check(Self.tieOut(Self.handTruth), planted: Self.handTruth)
    #expect(result == DemoTieOutCheck.Result())
    #expect(result.isExact)
    #expect(result.lines().isEmpty)
    #expect(
      result.text(planted: Self.handTruth.plantedCount)
        == "tie-out check: all 4 planted tie-out differences reported, nothing else (precision 1.0, recall 1.0)\n"
    )
  }

  @Test func checkNamesExactlyTheOneExtraCell() {
    var tieOut = Self.tieOut(Self.handTruth)
    var extra = TieOutCell(
      store: .appStore, source: .appleSales, day: CivilDate(year: 2026, month: 11, day: 4),
      productId: "com.acme.coins100", country: "GB", currency: Currency.named("GBP")!)
    extra.status = .reportLess
    tieOut.cells.append(extra)
    let result = DemoTieOutCheck.check(tieOut, planted: Self.handTruth)
    #expect(!result.isExact)
    #expect(result.missedCells.isEmpty && result.missedOrders.isEmpty && result.unexpectedOrders.isEmpty)
    #expect(result.missingControls.isEmpty)
    #expect(result.unexpectedCells == [PlantedTieOutCell(extra)])
    #expect(
      result.lines() == ["unexpected app_store apple_sales 2026-11-04 com.acme.coins100 GB GBP report_less"])
    #expect(
      result.text(planted: 4)
        == "tie-out check: MISMATCH — 0 planted tie-out difference(s) missed, 1 unexpected\n"
        + "  unexpected app_store apple_sales 2026-11-04 com.acme.coins100 GB GBP report_less\n")
  }

  @Test func checkNamesAWrongStatusAMissedOrderAndAMissingControl() {
    var tieOut = Self.tieOut(Self.handTruth)
    // The Play cell reported as report_less instead of price_differs.
    let play = tieOut.cells.firstIndex { $0.store == .play }!
    tieOut.cells[play].status = .reportLess
    // The missing_in_sales order not reported; the control's cell absent.
    tieOut.orders.removeAll { $0.status == .missingInSales }
    tieOut.cells.removeAll { $0.country == "US" && $0.productId == "com.acme.pro.monthly" }
    let result = DemoTieOutCheck.check(tieOut, planted: Self.handTruth)
    #expect(result.missedCells == [Self.handTruth.cells[1]])
    #expect(result.unexpectedCells.map(\.status) == [.reportLess])
    #expect(result.missedOrders == [Self.handTruth.orders[1]])
    #expect(result.unexpectedOrders.isEmpty)
    #expect(result.missingControls == Self.handTruth.controls)
    #expect(result.missedCount == 3 && result.unexpectedCount == 1)
    #expect(
      result.lines() == [
        "missed     play play_earnings 2026-10 pro JP JPY price_differs",
        "missed     play order GPA.5555-6666-7777-88888 2026-10 missing_in_sales",
        "missed     control app_store apple_sales 2026-11-03 com.acme.pro.monthly US USD match (charge at 08:30 UTC): not in the tie-out",
        "unexpected play play_earnings 2026-10 pro JP JPY report_less",
      ])
  }

  @Test func pacificDaysFollowTheUSRuleAsTheTimeZoneDatabaseDoes() {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "America/Los_Angeles")!
    // Every half hour of 2026 and 2027 (both DST changes each year).
    let start = CivilDate(year: 2026, month: 1, day: 1).startUTC.ms
    let end = CivilDate(year: 2028, month: 1, day: 1).startUTC.ms
    var wrong = 0
    for ms in stride(from: start, to: end, by: 1_800_000) {
      let c = calendar.dateComponents(
        [.year, .month, .day], from: Date(timeIntervalSince1970: Double(ms / 1000)))
      if DemoPacific.day(Instant(ms: ms)) != CivilDate(year: c.year!, month: c.month!, day: c.day!) {
        wrong += 1
      }
    }
    #expect(wrong == 0)
    // Summer (PDT, UTC−7): Pacific midnight is 07:00 UTC. Winter (PST, UTC−8): 08:00 UTC.
    func day(_ text: String) -> String { DemoPacific.day(Instant.parseISO8601(text)!).description }
    #expect(day("2026-07-15T06:59:59.999Z") == "2026-07-14")
    #expect(day("2026-07-15T07:30:00.000Z") == "2026-07-15")
    #expect(day("2026-11-15T07:30:00.000Z") == "2026-11-14")
    #expect(day("2026-11-15T08:30:00.000Z") == "2026-11-15")
    #expect(day("2026-11-01T08:59:59.999Z") == "2026-11-01")  // 01:59:59 PDT, the last of it
    #expect(DemoPacific.isDaylight(Instant.parseISO8601("2026-11-01T08:59:59.999Z")!))
    #expect(!DemoPacific.isDaylight(Instant.parseISO8601("2026-11-01T09:00:00.000Z")!))
    #expect(!DemoPacific.isDaylight(Instant.parseISO8601("2026-03-08T09:59:59.999Z")!))
    #expect(DemoPacific.isDaylight(Instant.parseISO8601("2026-03-08T10:00:00.000Z")!))
    let t = Instant.parseISO8601("2026-09-04T00:05:59.000Z")!
    #expect(DemoPacific.earningsDate(t) == "Sep 3, 2026")
    #expect(DemoPacific.earningsTime(t) == "5:05:59 PM PDT")
    #expect(DemoPacific.earningsTime(Instant.parseISO8601("2026-12-01T08:00:00.000Z")!) == "12:00:00 AM PST")
  }
}
