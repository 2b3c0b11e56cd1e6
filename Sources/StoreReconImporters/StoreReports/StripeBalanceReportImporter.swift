package import StoreReconCore
package import StoreReconIO

/// Stripe's itemized balance change report (`balance_change_from_activity.itemized.1`–`.3`, the
/// Dashboard's Balance report download, and what `fetch stripe` writes): comma-separated, one balance
/// transaction per row; docs/inputs.md#stripe-balance-reports.
///
/// Columns are found by name (any order, any case), so every version and any `columns` selection reads
/// the same. Required: `balance_transaction_id`, `created_utc` (or `created`), `currency`, `gross`,
/// `fee`, `net`, `reporting_category`. Optional: `available_on_utc` (or `available_on`), `source_id`,
/// `charge_id`, `payment_intent_id`, `invoice_id`, `subscription_id`, `customer_id`,
/// `automatic_payout_id`, `automatic_payout_effective_at_utc` (or `…_at`), `exchange_rate`,
/// `customer_facing_amount` and `customer_facing_currency`. Money is in major units of the row's
/// currency, converted exactly to ISO 4217 minor units: a row with more decimals than the currency
/// has is rejected, never rounded.
package struct StripeBalanceReportImporter {
  /// The run's time window (from T) every timestamp must fall in.
  package var window: StoreTimeWindow

  /// Creates the importer.
  package init(window: StoreTimeWindow = .standalone) { self.window = window }

  struct Columns {
    var id = 0, created = 0, currency = 0, gross = 0, fee = 0, net = 0, category = 0
    var available = -1, source = -1, charge = -1, intent = -1, invoice = -1, subscription = -1
    var customer = -1, payout = -1, payoutAt = -1, rate = -1, facingAmount = -1, facingCurrency = -1

    init(_ csv: CSVReader) throws(InputError) {
      var header = StoreReportReader.Header(csv)
      id = header.find("balance_transaction_id")
      created = header.find("created_utc", "created")
      currency = header.find("currency")
      gross = header.find("gross")
      fee = header.find("fee")
      net = header.find("net")
      category = header.find("reporting_category")
      available = header.find("available_on_utc", "available_on", required: false)
      source = header.find("source_id", required: false)
      charge = header.find("charge_id", required: false)
      intent = header.find("payment_intent_id", required: false)
      invoice = header.find("invoice_id", required: false)
      subscription = header.find("subscription_id", required: false)
      customer = header.find("customer_id", required: false)
      payout = header.find("automatic_payout_id", required: false)
      payoutAt = header.find(
        "automatic_payout_effective_at_utc", "automatic_payout_effective_at", required: false)
      rate = header.find("exchange_rate", required: false)
      facingAmount = header.find("customer_facing_amount", required: false)
      facingCurrency = header.find("customer_facing_currency", required: false)
      try header.check()
    }
  }

  /// Reads one balance report, appending its rows to `rows.stripeBalance`.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    into rows: inout StoreReportRows
  ) throws(InputError) -> InputCounts {
    let (source, _) = try InputBytes.openNamingEntry(path: path, displayName: displayName)
    let csv = try CSVReader(
      lines: LineReader(source: source, displayName: displayName), displayName: displayName,
      separator: StoreReportReader.comma)
    let columns = try Columns(csv)
    return try StoreReportReader.forEachRecord(
      csv, displayName: displayName, fileIndex: fileIndex, rejects: rejects
    ) { (cells, origin) throws(RowRejection) -> StoreReportReader.Outcome in
      try StoreReportReader.checkFieldCount(cells, csv)
      rows.stripeBalance.append(try StripeBalanceReportImporter.row(cells, columns, origin, window: window))
      return .accepted
    }
  }

  /// Maps one row.
  static func row(_ cells: ReportCells, _ c: Columns, _ origin: Origin, window: StoreTimeWindow)
    throws(RowRejection) -> StripeBalanceRow
  {
    let id = try cells.required(c.id, "balance_transaction_id")
    let created = try cells.stripeTime(c.created, "created_utc", within: window) ?? Instant.distantPast
    let currency = try cells.currency(c.currency, "currency")
    let gross = try cells.money(c.gross, "gross", currency)
    let fee = try cells.money(c.fee, "fee", currency)
    let net = try cells.money(c.net, "net", currency)
    let category = try cells.requiredShared(c.category, "reporting_category")
    var row = StripeBalanceRow(
      id: id, created: created, currency: currency, grossMinor: gross, feeMinor: fee, netMinor: net,
      category: category, origin: origin)
    row.availableOn = try cells.stripeTime(c.available, "available_on_utc", within: window, optional: true)
    row.sourceId = cells.text(c.source)
    row.chargeId = cells.text(c.charge)
    row.paymentIntentId = cells.text(c.intent)
    row.invoiceId = cells.text(c.invoice)
    row.subscriptionId = cells.text(c.subscription)
    row.customerId = cells.text(c.customer)
    row.payoutId = cells.text(c.payout)
    row.payoutAt = try cells.stripeTime(
      c.payoutAt, "automatic_payout_effective_at_utc", within: window, optional: true)
    if !cells.isBlank(c.rate) {
      let text = cells.text(c.rate)
      guard StripeRate(text) != nil else {
        throw RowRejection("exchange_rate \(cells.quoted(c.rate)) is not a positive decimal number")
      }
      row.exchangeRate = text
    }
    if !cells.isBlank(c.facingAmount) {
      let facing = try cells.currency(c.facingCurrency, "customer_facing_currency")
      row.customerFacingCurrency = facing
      row.customerFacingMinor = try cells.money(c.facingAmount, "customer_facing_amount", facing)
    }
    return row
  }
}
