import StoreReconCore

/// Planting the balance report's differences, the truth they give, and the report's files.
extension DemoStripeBalance {
  /// What a charge picked for a plant becomes.
  enum Plant: Int, CaseIterable {
    case missingInReport, missingInFeed, amountDiffers, feeDiffers, feeOffByOne
  }

  /// `exports/stripe/reports/balance_change_from_activity_itemized_YYYY-MM.csv`, as `fetch stripe`
  /// names them.
  static func path(_ month: CivilDate) -> String {
    "exports/stripe/reports/balance_change_from_activity_itemized_\(String(month.description.prefix(7))).csv"
  }

  /// The report's columns (those of `balance_change_from_activity.itemized.3` the job reads, and a few
  /// it does not).
  static let header =
    "balance_transaction_id,created_utc,available_on_utc,currency,gross,fee,net,reporting_category,"
    + "source_id,description,customer_facing_amount,customer_facing_currency,automatic_payout_id,"
    + "automatic_payout_effective_at_utc,customer_id,charge_id,payment_intent_id,invoice_id,subscription_id"

  /// Plants `count` differences of each status, works out the truth, writes the monthly files.
  func finish(into directory: String, count: Int) throws -> (files: [String], orders: [PlantedTieOutOrder]) {
    let sorted = rows.sorted { ($0.at, $0.txn) < ($1.at, $1.txn) }
    var report = sorted
    var candidates = sorted.indices.filter { sorted[$0].plantable }
    candidates.removeAll { $0 == 0 || $0 == sorted.count - 1 }
    let wanted = Plant.allCases.count * count
    guard candidates.count >= wanted else {
      throw DemoError.inconsistentTruth(
        "the Stripe balance report has \(candidates.count) clean charges, \(wanted) needed for its plants")
    }
    var rng = DemoRandom(seed: seed, stream: 0x57B1_A1CE_0000_0000)
    var dropped = Set<Int>()
    for j in 0..<wanted {
      let i = candidates[(2 * j + 1) * candidates.count / (2 * wanted)]
      switch Plant(rawValue: j % Plant.allCases.count) ?? .feeOffByOne {
      case .missingInReport: dropped.insert(i)
      case .missingInFeed:
        var extra = sorted[i]
        extra.txn = DemoStripePlants.id("txn", &rng)
        extra.at = extra.at.adding(ms: 17 * 60_000)
        extra.charge = DemoStripePlants.id("ch", &rng)
        extra.source = extra.charge
        extra.intent = DemoStripePlants.id("pi", &rng)
        extra.invoice = DemoStripePlants.id("in", &rng)
        extra.subscription = ""
        report.append(extra)
      case .amountDiffers: report[i].gross += 100
      case .feeDiffers: report[i].fee += 25
      case .feeOffByOne: report[i].fee += 1
      }
    }
    var planted = Set<Int>()
    for j in 0..<wanted { planted.insert(candidates[(2 * j + 1) * candidates.count / (2 * wanted)]) }
    if let i = candidates.first(where: { !planted.contains($0) && sorted[$0].currency.code == "EUR" }),
      let usd = Currency.named("USD")
    {
      report[i].balance = (
        usd, DemoStripeBalance.atRate(report[i].gross), DemoStripeBalance.atRate(report[i].fee)
      )
    }
    report = report.indices.filter { !dropped.contains($0) }.map { report[$0] }
    report.sort { ($0.at, $0.txn) < ($1.at, $1.txn) }
    let orders = truth(feed: sorted.filter { $0.category != "dispute" }, report: report)
    var plan: [TieOutOrder.Status: Int] = [:]
    for status in [TieOutOrder.Status.missingInReport, .missingInFeed, .amountDiffers, .feeDiffers] {
      plan[status] = count
    }
    try DemoStoreReports.verify(orders.map(\.status), planned: plan, "Stripe tie-out orders")
    return (try write(report, into: directory), orders)
  }

  /// The non-`match` tie-out rows of `feed` against `report` (docs/tieout.md#stripe-charges-and-refunds).
  func truth(feed: [Row], report: [Row]) -> [PlantedTieOutOrder] {
    guard let first = report.map(\.at).min(), let last = report.map(\.at).max() else { return [] }
    let month = DemoStripeBalance.monthStart
    var byCharge: [String: [Row]] = [:]
    var byRefund: [String: [Row]] = [:]
    for row in report {
      if row.category == "charge" { byCharge[row.charge, default: []].append(row) }
      if row.category == "refund" { byRefund[row.source, default: []].append(row) }
    }
    var used = Set<String>()
    var out: [PlantedTieOutOrder] = []
    for line in feed where line.at >= first && line.at <= last {
      let found = (line.category == "charge" ? byCharge[line.charge] : byRefund[line.source]) ?? []
      used.formUnion(found.map(\.txn))
      let estimate = line.category == "charge" ? DemoStripeBalance.fee(line.gross) : 0
      let status: TieOutOrder.Status
      if found.isEmpty {
        status = .missingInReport
      } else if found.reduce(Int64(0), { $0 + $1.gross }) != line.gross {
        status = .amountDiffers
      } else if abs(found.reduce(Int64(0), { $0 + $1.fee }) - estimate) > 1 {
        status = .feeDiffers
      } else {
        continue
      }
      out.append(
        PlantedTieOutOrder(orderId: line.source, month: month(line.at), status: status, store: .stripe))
    }
    for row in report where !used.contains(row.txn) && row.category != "dispute" {
      out.append(
        PlantedTieOutOrder(orderId: row.source, month: month(row.at), status: .missingInFeed, store: .stripe))
    }
    return out.sorted()
  }

  /// `minor` at the control's rate of 1.1 (one EUR is 1.1 USD; both have two digits), half-even.
  static func atRate(_ minor: Int64) -> Int64 {
    let tenths = minor * 11
    var quotient = tenths / 10
    let remainder = tenths % 10
    if remainder > 5 || (remainder == 5 && quotient % 2 != 0) { quotient += 1 }
    return quotient
  }

  /// Writes one file per month of the report (a month without rows: none). Returns the paths.
  func write(_ report: [Row], into directory: String) throws -> [String] {
    var payouts: [String: String] = [:]
    var rng = DemoRandom(seed: seed, stream: 0x57B1_9A70_0000_0000)
    var paths: [String] = []
    for month in months {
      let rows = report.filter { DemoStripeBalance.monthStart($0.at) == month }
      guard !rows.isEmpty else { continue }
      let path = DemoStripeBalance.path(month)
      let writer = try DemoFileWriter(directory: directory, relativePath: path)
      try writer.write(bytes: (DemoStripeBalance.header + "\n").utf8)
      let next = DemoStripeBalance.nextMonth(month)
      var line = DemoLine()
      for row in rows {
        var payout = ""
        var payoutAt = ""
        let c = row.balance?.currency ?? row.currency
        let gross = row.balance?.gross ?? row.gross
        let fee = row.balance?.fee ?? row.fee
        if next.startUTC <= t {
          let key = "\(month) \(c.code)"
          if payouts[key] == nil { payouts[key] = DemoStripePlants.id("po", &rng) }
          payout = payouts[key] ?? ""
          payoutAt = DemoStripeBalance.time(next.startUTC.adding(days: 2))
        }
        let facing =
          row.balance == nil ? ["", ""] : [row.currency.format(row.gross), row.currency.code.lowercased()]
        let fields =
          [
            row.txn, DemoStripeBalance.time(row.at), DemoStripeBalance.time(row.at.adding(days: 2)),
            c.code.lowercased(), c.format(gross), c.format(fee), c.format(gross - fee), row.category,
            row.source, row.category == "charge" ? "Subscription update" : "",
          ] + facing + [
            payout, payoutAt, row.customer, row.charge, row.intent, row.invoice, row.subscription,
          ]
        line.reset()
        for (i, field) in fields.enumerated() {
          if i > 0 { line.byte(0x2C) }
          line.csv(field)
        }
        try writer.writeLine(line)
      }
      try writer.close()
      paths.append(path)
    }
    return paths
  }

  /// `YYYY-MM-DD HH:MM:SS` in UTC, as the report writes times.
  static func time(_ instant: Instant) -> String {
    let (days, ms) = instant.ms.floorDivided(by: Instant.msPerDay)
    let seconds = ms / 1000
    func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return
      "\(CivilDate(daysSinceEpoch: days)) \(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
  }

  /// The first day of the UTC month of `instant`.
  static func monthStart(_ instant: Instant) -> CivilDate {
    let day = DemoCalendar.date(instant)
    return CivilDate(year: day.year, month: day.month, day: 1)
  }

  /// The first day of the month after `month`.
  static func nextMonth(_ month: CivilDate) -> CivilDate {
    month.month == 12
      ? CivilDate(year: month.year + 1, month: 1, day: 1)
      : CivilDate(year: month.year, month: month.month + 1, day: 1)
  }
}
