import StoreReconTestSupport
import Testing

@testable import StoreReconCore

/// Revenue recognition (docs/reports.md#revenue_recognitioncsv): every charge's days add up to it, every
/// row's identity holds, and the deferred balance at T is what an independent computation finds.
@Suite struct RevenueRecognitionTests {
  static func utcDay(_ i: Instant) -> CivilDate {
    CivilDate(daysSinceEpoch: i.ms.floorDivided(by: Instant.msPerDay).quotient)
  }
  static func utcStart(_ d: CivilDate) -> Instant { d.startUTC }

  /// round_half_even(a × e / p) in 128-bit arithmetic, written apart from the code under test.
  static func ratable(_ a: Int64, _ e: Int64, _ p: Int64) -> Int64 {
    if p == 0 { return a }
    let e = Int128(min(max(e, 0), p))
    let product = Int128(a) * e
    var q = product / Int128(p)
    let r = product - q * Int128(p)
    if 2 * r > Int128(p) || (2 * r == Int128(p) && q % 2 == 1) { q += 1 }
    return Int64(q)
  }

  @Test func aChargesDaysAddUpToTheChargeLessItsRefunds() {
    var g = SeededGenerator(seed: 34)
    for _ in 0..<300 {
      let start = Fx.at("2026-01-01T00:00:00Z").ms + Int64(g.below(40 * 86_400_000))
      let length = Int64([0, 1, 7, 28, 31, 365].map { $0 * 86_400_000 }[g.below(6)] + g.below(86_400_000))
      let amount = Int64(1 + g.below(2_000_000))
      var schedule = ChargeSchedule(start: start, end: start + length, amount: amount)
      if g.below(3) == 0 {
        let refund = Int64(1 + g.below(Int(amount)))
        schedule.refunds = [.init(at: start + Int64(g.below(Int(length) + 1)), amount: refund)]
      }
      var overflow = false
      let firstDay = start.floorDivided(by: Instant.msPerDay).quotient
      var sum: Int64 = 0
      var before: Int64 = 0
      for day in firstDay...(firstDay + 400) {
        let cumulative = schedule.recognized(by: (day + 1) * Instant.msPerDay, overflow: &overflow)
        sum += cumulative - before
        before = cumulative
      }
      #expect(!overflow)
      #expect(
        sum == amount - schedule.refundedMinor(overflow: &overflow),
        "seed 34: \(schedule) adds up to \(sum)")
    }
  }

  @Test func aYearlyPlanBoughtMidMonthAndRefundedThreeMonthsLater() {
    var catalog = Catalog()
    catalog.set("com.acme.pro.yearly", Catalog.Product(period: BillingPeriod(months: 12)))
    let bought = Fx.at("2026-01-20T12:00:00Z")
    let charge = Fx.apple(
      "1", original: "1", product: "com.acme.pro.yearly", at: bought, expires: Fx.at("2027-01-20T12:00:00Z"),
      price: 36_500, revokedAt: Fx.at("2026-04-20T12:00:00Z"))
    let ledger = Fx.ledger([charge], asOf: Fx.at("2026-05-01T00:00:00Z"), catalog: catalog)
    let sums = RevenueRecognition.sums(ledger: ledger, dayOf: Self.utcDay, startOf: Self.utcStart)
    var overflow = false
    let rows = RecognitionRow.rows(sums, through: ReportMonth.parse("2026-04")!, overflow: &overflow)
    let text = rows.map {
      "\($0.month) \($0.billedMinor) \($0.refundedMinor) \($0.recognizedMinor) \($0.deferredOpeningMinor) \($0.deferredClosingMinor)"
    }
    // 365 days at 100 a day: 11.5 days in January (from noon on the 20th), 28 in February, 31 in March;
    // April's days up to the refund are recognised, then the refund day reverses everything recognised
    // of the charge: April nets to minus the 7,050 of January to March, and nothing stays deferred.
    #expect(
      text == [
        "2026-01 36500 0 1150 0 35350",
        "2026-02 0 0 2800 35350 32550",
        "2026-03 0 0 3100 32550 29450",
        "2026-04 0 36500 -7050 29450 0",
      ])
    #expect(!overflow)
  }

  @Test func aPlayOrderRunsOneCatalogPeriodWithTheDayOfTheMonthClamped() {
    // Bought on 31 January, monthly: the period ends on 28 February (as billing periods clamp), never at
    // a later expiryTime.
    let charge = Fx.playCharge("GPA.1", at: Fx.at("2026-01-31T00:00:00Z"), amount: 2_800)
    let status = Fx.playStatus(
      token: "tok", latestOrder: "GPA.1", start: Fx.at("2026-01-31T00:00:00Z"),
      expiry: Fx.at("2026-06-30T00:00:00Z"))
    let ledger = Fx.ledger([charge, status], asOf: Fx.at("2026-04-01T00:00:00Z"))
    let sums = RevenueRecognition.sums(ledger: ledger, dayOf: Self.utcDay, startOf: Self.utcStart)
    var overflow = false
    let rows = RecognitionRow.rows(sums, through: ReportMonth.parse("2026-03")!, overflow: &overflow)
    #expect(rows.map(\.recognizedMinor) == [100, 2_700])
    #expect(rows.map(\.deferredClosingMinor) == [2_700, 0])
  }

  @Test func monthsEndInTheReportTimeZone() {
    // 23:30 UTC on 31 January is 00:30 on 1 February at UTC+01:00: billed and recognised in February.
    let charge = Fx.apple(
      "1", original: "1", product: "coins", at: Fx.at("2026-01-31T23:30:00Z"), expires: nil, price: 999,
      type: "Consumable")
    let ledger = Fx.ledger([charge], asOf: Fx.at("2026-03-01T00:00:00Z"))
    let hour = Int64(3_600_000)
    let sums = RevenueRecognition.sums(
      ledger: ledger,
      dayOf: { CivilDate(daysSinceEpoch: ($0.ms + hour).floorDivided(by: Instant.msPerDay).quotient) },
      startOf: { Instant(ms: $0.startUTC.ms - hour) })
    var overflow = false
    let rows = RecognitionRow.rows(sums, through: ReportMonth.parse("2026-02")!, overflow: &overflow)
    #expect(rows.map { "\($0.month) \($0.billedMinor) \($0.recognizedMinor)" } == ["2026-02 999 999"])
  }

  @Test func aProratedRefundReversesItsShareByTheSameRule() {
    let charge = Fx.apple(
      "1", original: "1", at: Fx.at("2026-01-01T00:00:00Z"), expires: Fx.at("2026-01-31T00:00:00Z"),
      price: 3_000, revokedAt: Fx.at("2026-01-11T00:00:00Z"), revocationType: "REFUND_PRORATED",
      percent: 50_000)
    let ledger = Fx.ledger([charge], asOf: Fx.at("2026-03-01T00:00:00Z"))
    let sums = RevenueRecognition.sums(ledger: ledger, dayOf: Self.utcDay, startOf: Self.utcStart)
    var overflow = false
    let rows = RecognitionRow.rows(sums, through: ReportMonth.parse("2026-02")!, overflow: &overflow)
    // Half is refunded: recognised 1,500 over the period, nothing left deferred.
    #expect(
      rows.map {
        "\($0.month) \($0.billedMinor) \($0.refundedMinor) \($0.recognizedMinor) \($0.deferredClosingMinor)"
      } == [
        "2026-01 3000 1500 1500 0"
      ])
  }

  @Test func familySharingAndUpgradesMoveNoMoney() {
    let family = Fx.apple(
      "1", original: "1", at: Fx.at("2026-01-01T00:00:00Z"), expires: Fx.at("2026-02-01T00:00:00Z"),
      family: true)
    // Upgraded on 10 January: the transaction keeps its period and is no refund.
    let upgraded = Fx.apple(
      "2", original: "2", at: Fx.at("2026-01-01T00:00:00Z"), expires: Fx.at("2026-02-01T00:00:00Z"),
      price: 3_100, revokedAt: Fx.at("2026-01-10T00:00:00Z"), upgraded: true)
    let ledger = Fx.ledger([family, upgraded], asOf: Fx.at("2026-01-16T00:00:00Z"))
    let sums = RevenueRecognition.sums(ledger: ledger, dayOf: Self.utcDay, startOf: Self.utcStart)
    var overflow = false
    let rows = RecognitionRow.rows(sums, through: ReportMonth.parse("2026-01")!, overflow: &overflow)
    #expect(
      rows.map { "\($0.billedMinor) \($0.refundedMinor) \($0.recognizedMinor) \($0.deferredClosingMinor)" }
        == [
          "3100 0 1500 1600"
        ])
  }

  /// A generated world of App Store and Play charges (monthly and yearly, upgrades, refunds, voids,
  /// Family Sharing) at several seeds.
  @Test(arguments: [1, 7, 34] as [UInt64])
  func generatedWorldsBalance(seed: UInt64) {
    var g = SeededGenerator(seed: seed)
    var catalog = Catalog()
    catalog.set("play:pro:yearly", Catalog.Product(period: BillingPeriod(months: 12)))
    catalog.set("app_store:com.acme.pro.yearly", Catalog.Product(period: BillingPeriod(months: 12)))
    let t = Fx.at("2026-11-30T00:00:00Z")
    let from = Fx.at("2025-06-01T00:00:00Z").ms
    var records: [StoreTransaction] = []
    // Independent: each charge's amount less what is recognised of it by T, where it is not refunded.
    var expected: [Currency: Int64] = [:]
    for i in 0..<400 {
      let at = Instant(ms: from + Int64(g.below(Int(t.ms - from))))
      let yearly = g.below(3) == 0
      let price = Int64(100 + g.below(20_000))
      let refundAt = g.below(5) == 0 ? at.adding(ms: Int64(g.below(200 * 86_400_000))) : nil
      let refunded = refundAt.map { $0.ms <= t.ms } ?? false
      let end: Instant
      if g.below(2) == 0 {
        end = (yearly ? BillingPeriod(months: 12) : .oneMonth).advance(at)
        let upgraded = !refunded && g.below(6) == 0
        let family = g.below(10) == 0
        records.append(
          Fx.apple(
            "a\(i)", original: "a\(i)", product: yearly ? "com.acme.pro.yearly" : "com.acme.pro.monthly",
            at: at, expires: end, price: price, family: family,
            revokedAt: refundAt ?? (upgraded ? at.adding(ms: 86_400_000) : nil), upgraded: upgraded))
        if family { continue }
      } else {
        end = (yearly ? BillingPeriod(months: 12) : .oneMonth).advance(at)
        let order = "GPA.\(1000 + i)"
        records.append(
          Fx.playCharge(order, at: at, product: yearly ? "pro:yearly" : "pro:monthly", amount: price))
        if let refundAt, refunded {
          records.append(
            g.below(2) == 0
              ? Fx.playRefund(order, at: refundAt, amount: price)
              : Fx.playVoid(token: nil, order: order, at: refundAt))
        }
      }
      let currency = records.last?.store == .play ? Fx.eur : Fx.usd
      guard !refunded, end.ms > t.ms else { continue }
      expected[currency, default: 0] += price - Self.ratable(price, t.ms - at.ms, end.ms - at.ms)
    }
    let ledger = Fx.ledger(records, asOf: t, catalog: catalog)
    let sums = RevenueRecognition.sums(ledger: ledger, dayOf: Self.utcDay, startOf: Self.utcStart)
    var overflow = false
    let last = ReportMonth.parse("2026-11")!
    let rows = RecognitionRow.rows(sums, through: last, overflow: &overflow)
    #expect(!overflow)
    for r in rows {
      #expect(
        r.deferredOpeningMinor + r.billedMinor - r.refundedMinor - r.recognizedMinor
          == r.deferredClosingMinor,
        "seed \(seed): \(r)")
    }
    let deferred = Dictionary(uniqueKeysWithValues: RecognitionRow.deferredAtT(rows, last: last))
    #expect(deferred == expected, "seed \(seed)")
    // The waterfall recognises what the rows do.
    var byCurrency: [Currency: Int64] = [:]
    for r in rows { byCurrency[r.currency, default: 0] += r.recognizedMinor }
    var flows: [Currency: Int64] = [:]
    for (key, amount) in sums.waterfall { flows[key.currency, default: 0] += amount }
    #expect(byCurrency == flows, "seed \(seed)")
  }
}
