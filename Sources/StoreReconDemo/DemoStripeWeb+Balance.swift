import StoreReconCore

/// Stripe's itemized balance change report of the realistic world, one file per UTC month as `fetch`
/// writes them (`balance_change_from_activity_itemized_YYYY-MM.csv`): a row per charge, refund,
/// dispute and dispute reversal, amounts in major units, the fee at the configured rate; each day's
/// available balance per currency paid out the next morning (`automatic_payout_id`), with the
/// payout's own row. Files of months before the migration have the Dashboard's columns, later ones
/// the API report's (other columns, another order).
extension DemoStripeWeb {
  static let dashboardColumns = [
    "balance_transaction_id", "created_utc", "available_on_utc", "currency", "gross", "fee", "net",
    "reporting_category", "source_id", "description", "customer_facing_amount", "customer_facing_currency",
    "automatic_payout_id", "automatic_payout_effective_at_utc", "customer_id", "customer_email",
    "customer_name",
    "customer_description", "charge_id", "payment_intent_id", "charge_created_utc", "invoice_id",
    "subscription_id",
    "payment_method_type", "card_brand", "card_funding", "card_country", "statement_descriptor",
    "dispute_reason",
    "connected_account_id",
  ]
  static let apiColumns = [
    "balance_transaction_id", "created_utc", "created", "available_on_utc", "available_on", "currency",
    "gross",
    "fee", "net", "reporting_category", "source_id", "description", "customer_facing_amount",
    "customer_facing_currency", "automatic_payout_id", "automatic_payout_effective_at_utc",
    "automatic_payout_effective_at", "customer_id", "customer_email", "charge_id", "payment_intent_id",
    "charge_created_utc", "charge_created", "invoice_id", "subscription_id", "payment_method_type",
    "card_brand",
    "card_funding", "card_country", "dispute_reason", "connected_account_id",
  ]

  /// One row of the report, by column name.
  struct BalanceRow {
    var id: String
    var created: Instant
    var available: Instant
    var gross: Int64
    var fee: Int64
    var category: String
    var source: String
    var description: String
    var chargeId = ""
    var intent = ""
    var chargeCreated: Instant?
    var invoice = ""
    var subscription = ""
    var customer = ""
    var disputeReason = ""
    var payout: (id: String, at: Instant)?
  }

  /// The rows of one paid invoice's charge and of the money that went back on it.
  func balanceRows(_ sub: DemoWebSubscription, _ inv: DemoWebSubscription.Invoice) throws {
    let fee = RoundingRule.halfEven.scale(
      inv.amount, numerator: DemoStripeWeb.feeBasisPoints, denominator: 10_000)
    var charge = BalanceRow(
      id: inv.balanceTransaction, created: inv.paidAt, available: nextDay(inv.paidAt, after: 2),
      gross: inv.amount,
      fee: fee, category: "charge", source: inv.charge,
      description: inv.billingReason == "subscription_create"
        ? "Subscription creation" : "Subscription update")
    fill(&charge, sub, inv)
    try add(charge, sub)
    for refund in inv.refunds {
      var row = BalanceRow(
        id: refund.balanceTransaction, created: refund.at, available: nextDay(refund.at, after: 0),
        gross: -refund.amount, fee: 0, category: "refund", source: refund.id, description: "REFUND FOR CHARGE"
      )
      fill(&row, sub, inv)
      try add(row, sub)
    }
    if let dispute = inv.dispute {
      let disputeFee: Int64 = sub.currency.code == "USD" ? 1500 : 0
      var row = BalanceRow(
        id: dispute.balanceTransaction, created: dispute.at, available: nextDay(dispute.at, after: 0),
        gross: -dispute.amount, fee: disputeFee, category: "dispute", source: dispute.id,
        description: "Chargeback withdrawal for " + inv.charge)
      fill(&row, sub, inv)
      row.disputeReason = dispute.id.hasSuffix("x") ? "subscription_canceled" : "fraudulent"
      try add(row, sub)
      if let reversal = dispute.reversalTransaction, let closed = dispute.closedAt {
        var back = BalanceRow(
          id: reversal, created: closed, available: nextDay(closed, after: 0), gross: dispute.amount,
          fee: -disputeFee, category: "dispute_reversal", source: dispute.id,
          description: "Chargeback reversal for " + inv.charge)
        fill(&back, sub, inv)
        back.disputeReason = row.disputeReason
        try add(back, sub)
      }
    }
  }

  private func fill(
    _ row: inout BalanceRow, _ sub: DemoWebSubscription, _ inv: DemoWebSubscription.Invoice
  ) {
    row.chargeId = inv.charge
    row.intent = inv.intent
    row.chargeCreated = inv.paidAt
    row.invoice = inv.id
    row.subscription = sub.id
    row.customer = sub.customer
  }

  /// The start of the UTC day `days` after the instant's day, plus one.
  private func nextDay(_ instant: Instant, after days: Int64) -> Instant {
    let day = instant.ms.floorDivided(by: Instant.msPerDay).quotient
    return Instant(ms: (day + 1 + days) * Instant.msPerDay)
  }

  /// When the payout of balance available on `available` is created (it arrives the next day).
  private func payoutCreated(_ available: Instant) -> Instant { available.adding(ms: 3 * 3_600_000) }

  /// Writes `row` in the file of its month, with its payout where that was made by T.
  private func add(_ row: BalanceRow, _ sub: DemoWebSubscription) throws {
    guard row.created < t else { return }
    var row = row
    if payoutCreated(row.available) < t {
      let key = DemoStripePayoutKey(
        day: row.available.ms.floorDivided(by: Instant.msPerDay).quotient, currency: sub.currency.code)
      payouts[key, default: 0] += row.gross - row.fee
      row.payout = (payoutId(key), row.available.adding(days: 1))
    }
    try writeRow(row, currency: sub.currency)
  }

  /// The payout's id, the same for the same day and currency.
  func payoutId(_ key: DemoStripePayoutKey) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for b in key.currency.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01B3 }
    var rng = DemoRandom(seed: seed ^ hash, stream: 0x9A70_0000_0000_0000 &+ UInt64(bitPattern: key.day))
    return DemoStripeIds.id("po_1", &rng)
  }

  private func writeRow(_ row: BalanceRow, currency: Currency) throws {
    let date = DemoCalendar.date(row.created)
    let month = "\(date.year)-\(date.month < 10 ? "0" : "")\(date.month)"
    // A month's file has one set of columns: the API report's from the first month after the migration.
    let api = CivilDate(year: date.year, month: date.month, day: 1).startUTC >= DemoStripeWeb.migratedAt
    let writer = try report(month, api: api)
    var cells: [String: String] = [
      "balance_transaction_id": row.id, "created_utc": utc(row.created), "created": utc(row.created),
      "available_on_utc": utc(row.available), "available_on": utc(row.available),
      "currency": currency.code.lowercased(), "gross": major(row.gross, currency),
      "fee": major(row.fee, currency),
      "net": major(row.gross - row.fee, currency), "reporting_category": row.category,
      "source_id": row.source,
      "description": row.description, "customer_id": row.customer, "charge_id": row.chargeId,
      "payment_intent_id": row.intent, "invoice_id": row.invoice, "subscription_id": row.subscription,
      "dispute_reason": row.disputeReason,
    ]
    if row.category == "charge" {
      cells["customer_facing_amount"] = major(row.gross, currency)
      cells["customer_facing_currency"] = currency.code.lowercased()
      cells["payment_method_type"] = "card"
      cells["card_brand"] = "visa"
      cells["card_funding"] = "credit"
      cells["statement_descriptor"] = "ACME PRO"
    }
    if let created = row.chargeCreated {
      cells["charge_created_utc"] = utc(created)
      cells["charge_created"] = utc(created)
    }
    if !row.customer.isEmpty {
      cells["customer_email"] = "u" + String(row.customer.suffix(6)).lowercased() + "@mail.example"
    }
    if let payout = row.payout {
      cells["automatic_payout_id"] = payout.id
      cells["automatic_payout_effective_at_utc"] = utc(payout.at)
      cells["automatic_payout_effective_at"] = utc(payout.at)
    }
    line.reset()
    for (i, column) in (api ? DemoStripeWeb.apiColumns : DemoStripeWeb.dashboardColumns).enumerated() {
      if i > 0 { line.byte(0x2C) }
      line.csv(cells[column] ?? "")
    }
    try writer.writeLine(line)
  }

  private func report(_ month: String, api: Bool) throws -> DemoFileWriter {
    if let writer = reports[month] { return writer }
    let writer = try DemoFileWriter(
      directory: directory,
      relativePath: DemoStripeWeb.reportsFolder + "/balance_change_from_activity_itemized_\(month).csv")
    try writer.write(
      bytes: (api ? DemoStripeWeb.apiColumns : DemoStripeWeb.dashboardColumns).joined(separator: ",").utf8)
    try writer.write("\n")
    reports[month] = writer
    return writer
  }

  /// `2026-11-29 08:15:02`.
  private func utc(_ instant: Instant) -> String {
    var text = DemoLine()
    text.iso(instant)
    let iso = String(decoding: text.bytes, as: UTF8.self)
    return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8))
  }

  /// An amount in major units: `19.99`, `-5.00`, JPY `1200`.
  private func major(_ minor: Int64, _ currency: Currency) -> String {
    let digits = currency.minorUnits ?? 2
    guard digits > 0 else { return String(minor) }
    let scale = Pow10.int64(digits)
    let magnitude = minor.magnitude
    let fraction = String(magnitude % UInt64(scale))
    return (minor < 0 ? "-" : "") + String(magnitude / UInt64(scale)) + "."
      + String(repeating: "0", count: digits - fraction.count) + fraction
  }

  /// Writes the payouts' own rows and closes the files; returns their relative paths.
  func close() throws -> [String] {
    for (key, net) in payouts.sorted(by: { ($0.key.day, $0.key.currency) < ($1.key.day, $1.key.currency) }) {
      guard let currency = Currency.named(key.currency) else { continue }
      let at = payoutCreated(Instant(ms: key.day * Instant.msPerDay))
      let row = BalanceRow(
        id: "txn_1" + payoutId(key).dropFirst(4), created: at, available: at, gross: -net, fee: 0,
        category: "payout",
        source: payoutId(key), description: "STRIPE PAYOUT")
      try writeRow(row, currency: currency)
    }
    var paths = [events.relativePath, objects.relativePath]
    try events.close()
    try objects.close()
    for (_, writer) in reports.sorted(by: { $0.key < $1.key }) {
      paths.append(writer.relativePath)
      try writer.close()
    }
    return paths
  }
}
