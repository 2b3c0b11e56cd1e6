package import StoreReconCore

extension ReportSummary {
  /// The tie-out cells of one store, report and status.
  package struct TieOutLine: Sendable, Equatable {
    package var store: Store
    package var source: StoreReportKind
    package var status: TieOutCell.Status
    package var cells: Int
    /// Σ |`gross_diff_minor`| per currency (currencies in code order).
    package var grossDifference: [Money]
    /// Σ `report_gross_minor` per currency.
    package var reportGross: [Money]
  }

  /// The Play orders of one store and status.
  package struct TieOutOrderLine: Sendable, Equatable {
    package var store: Store
    package var status: TieOutOrder.Status
    package var orders: Int
    /// Σ |earnings `Charge` − sales `Item Price`| per currency.
    package var chargeDifference: [Money]
    /// Σ |actual Google fee − the fee schedule's estimate| per currency.
    package var feeDifference: [Money]
  }

  /// Per store and report (in store then report order) every cell status, in status order, with the
  /// cells and money of each (a status without cells has a zero line).
  package static func tieOutLines(_ tieOut: TieOut) -> [TieOutLine] {
    struct Key: Hashable {
      var store: Store
      var source: StoreReportKind
      var status: TieOutCell.Status
    }
    var sums: [Key: (cells: Int, diff: [Currency: Int64], gross: [Currency: Int64])] = [:]
    var groups: Set<[String]> = []
    for c in tieOut.cells {
      let key = Key(store: c.store, source: c.source, status: c.status)
      sums[key, default: (0, [:], [:])].cells += 1
      sums[key, default: (0, [:], [:])].diff[c.currency, default: 0] += c.grossDiffMinor.magnitudeOrMax
      sums[key, default: (0, [:], [:])].gross[c.currency, default: 0] += c.reportGrossMinor
      groups.insert([c.store.rawValue, c.source.rawValue])
    }
    var lines: [TieOutLine] = []
    for store in Store.allCases.sorted() {
      for source in StoreReportKind.allCases.sorted()
      where groups.contains([store.rawValue, source.rawValue]) {
        for status in TieOutCell.Status.allCases {
          let sum = sums[Key(store: store, source: source, status: status)] ?? (0, [:], [:])
          lines.append(
            TieOutLine(
              store: store, source: source, status: status, cells: sum.cells,
              grossDifference: moneyList(sum.diff), reportGross: moneyList(sum.gross)))
        }
      }
    }
    return lines
  }

  /// Per store every order status, in status order (none when there is no order); the refund statuses
  /// only where an order has one.
  package static func tieOutOrderLines(_ tieOut: TieOut) -> [TieOutOrderLine] {
    struct Key: Hashable {
      var store: Store
      var status: TieOutOrder.Status
    }
    var sums: [Key: (orders: Int, diff: [Currency: Int64], fee: [Currency: Int64])] = [:]
    for o in tieOut.orders {
      // In place: a copy out and back would copy both currency tables for every order.
      let key = Key(store: o.store, status: o.status)
      sums[key, default: (0, [:], [:])].orders += 1
      sums[key, default: (0, [:], [:])].diff[o.currency, default: 0] += o.chargeDifferenceMinor
      sums[key, default: (0, [:], [:])].fee[o.currency, default: 0] += o.feeDifferenceMinor
    }
    let stores = Set(tieOut.orders.map(\.store))
    // The refund statuses only where an order has one (docs/tieout.md#refunds-one-report-shows): a
    // world whose two reports agree on every refund reads as before.
    let rare: Set<TieOutOrder.Status> = [
      .refundNotInEarnings, .refundNotInSales, .missingInReport, .missingInFeed,
    ]
    // Stripe's charges and refunds have their own statuses (docs/tieout.md#stripe-charges-and-refunds).
    let stripe: [TieOutOrder.Status] = [
      .match, .missingInReport, .missingInFeed, .amountDiffers, .feeDiffers,
    ]
    return Store.allCases.sorted().filter(stores.contains).flatMap { store in
      TieOutOrder.Status.allCases.filter {
        store == .stripe
          ? stripe.contains($0) : !rare.contains($0) || sums[Key(store: store, status: $0)] != nil
      }
      .map { status in
        let sum = sums[Key(store: store, status: status)] ?? (0, [:], [:])
        return TieOutOrderLine(
          store: store, status: status, orders: sum.orders, chargeDifference: moneyList(sum.diff),
          feeDifference: moneyList(sum.fee))
      }
    }
  }

  /// The sums as money, currencies in code order.
  static func moneyList(_ sums: [Currency: Int64]) -> [Money] {
    sums.keys.sorted().map { Money(minor: sums[$0] ?? 0, currency: $0) }
  }

  /// Money amounts joined by `, `; `—` for none.
  /// A list of amounts in several currencies: `—` when empty, `0` when every one is zero (a `match` row's
  /// difference, which need not name each currency), else each amount with its code.
  static func moneyText(_ list: [Money]) -> String {
    if list.isEmpty { return "—" }
    let nonZero = list.filter { $0.minor != 0 }
    if nonZero.isEmpty { return "0" }
    return nonZero.map(Grouped.money).joined(separator: ", ")
  }

  var tieOutSection: SummarySection {
    let tieOut = facts.tieOut
    guard !tieOut.cells.isEmpty || !tieOut.orders.isEmpty else {
      return SummarySection(
        title: "Tie-out",
        blocks: [
          .paragraph(
            "No store report configured (appStore.salesReports, play.earnings): nothing to tie the transactions out to."
          )
        ])
    }
    var blocks: [SummarySection.Block] = [
      .paragraph(
        "The stores' own reports against the transaction feed, per cell (Apple: report day; Play: earnings month) of product, country and currency; money is the buyer's gross. Per cell: tieout.csv; per Play order or Stripe charge and refund: tieout_orders.csv."
      )
    ]
    var table = SummaryTable(
      headers: ["store", "source", "status", "cells", "|gross difference|", "report gross"],
      rightAligned: [3, 4, 5])
    for line in Self.tieOutLines(tieOut) {
      table.rows.append([
        line.store.rawValue, line.source.rawValue, line.status.rawValue, Grouped.count(line.cells),
        Self.moneyText(line.grossDifference), Self.moneyText(line.reportGross),
      ])
    }
    if !table.rows.isEmpty { blocks.append(.table(table)) }
    let cellSteps = tieOutSteps(cells: Set(tieOut.cells.lazy.map(\.status)), orders: [])
    if !cellSteps.isEmpty { blocks.append(.nextSteps(cellSteps)) }
    let orderLines = Self.tieOutOrderLines(tieOut)
    if !orderLines.isEmpty {
      blocks.append(.subheading(Self.ordersHeading(Set(orderLines.map(\.store)))))
      var orders = SummaryTable(
        headers: ["store", "status", "orders", "|earnings − sales|", "|actual − estimated fee|"],
        rightAligned: [2, 3, 4])
      for line in orderLines {
        orders.rows.append([
          line.store.rawValue, line.status.rawValue, Grouped.count(line.orders),
          Self.moneyText(line.chargeDifference),
          Self.moneyText(line.feeDifference),
        ])
      }
      blocks.append(.table(orders))
      let orderSteps = tieOutSteps(cells: [], orders: Set(tieOut.orders.lazy.map(\.status)))
      if !orderSteps.isEmpty { blocks.append(.nextSteps(orderSteps)) }
    }
    blocks += consoleCheckBlocks
    return SummarySection(title: "Tie-out", blocks: blocks)
  }

  /// The daily check against the console: per store and product the report's paid units of the day,
  /// the chains paid through T and the active entitlements, with the differences named (rows no store
  /// report covers are left out; all rows are in counts.csv).
  var consoleCheckBlocks: [SummarySection.Block] {
    let rows = facts.counts.filter { $0.reportPaidUnits != nil }
    guard !rows.isEmpty else { return [] }
    var table = SummaryTable(
      headers: [
        "store", "product", "report paid units", "chains paid through", "entitlements active", "detail",
      ],
      rightAligned: [2, 3, 4])
    for r in rows {
      table.rows.append([
        r.store.rawValue, r.productId, r.reportPaidUnits.map(Grouped.integer) ?? "",
        Grouped.count(r.chainsPaidThrough),
        Grouped.count(r.entitlementsActive), r.detail.isEmpty ? "—" : r.detail,
      ])
    }
    return [
      .folded(
        "Paid units in the store's latest report of the day, against chains and entitlements (counts.csv)",
        table)
    ]
  }

  /// The heading of the order table: what each store's orders tie out.
  static func ordersHeading(_ stores: Set<Store>) -> String {
    let play = "Google Play orders (earnings Charge against sales Item Price)"
    let stripe = "Stripe charges and refunds (balance report against the feed)"
    if !stores.contains(.stripe) { return play }
    return stores.contains(.play) ? play + "; " + stripe : stripe
  }

  /// The next steps of the statuses other than `match` that `cells` and `orders` hold, in status order.
  func tieOutSteps(cells cellStatuses: Set<TieOutCell.Status>, orders orderStatuses: Set<TieOutOrder.Status>)
    -> [SummaryStep]
  {
    let subjects: [NextStep.Subject] =
      TieOutCell.Status.allCases.filter(cellStatuses.contains).map { .tieOutCell($0) }
      + TieOutOrder.Status.allCases.filter(orderStatuses.contains).map { .tieOutOrder($0) }
    return subjects.compactMap { NextStep.of($0).map { SummaryStep($0, docsBase: facts.docsBase) } }
  }

  var payoutsSection: SummarySection {
    guard !facts.payouts.isEmpty || !facts.payoutLines.isEmpty else {
      return SummarySection(
        title: "Payouts",
        blocks: [
          .paragraph(
            "No settlement report configured (play.earnings, appStore.financialReports, appStore.financialSummaries): no payout totals."
          )
        ])
    }
    var table = SummaryTable(headers: ["report", "currency", "payout", "rows"], rightAligned: [2, 3])
    for p in facts.payouts {
      table.rows.append([
        p.kind.rawValue, p.currency.code, Grouped.amount(p.amountMinor, p.currency), Grouped.count(p.rows),
      ])
    }
    for (currency, total) in stripePayoutTotals {
      table.rows.append([
        "stripe_balance", currency.code, Grouped.amount(total.amount, currency), Grouped.count(total.rows),
      ])
    }
    return SummarySection(
      title: "Payouts",
      blocks: [
        .paragraph(
          "What the settlement reports pay out per payout currency: Play earnings Σ Amount (Merchant Currency), fees and taxes included; Apple Financial reports Σ Extended Partner Share per Partner Share Currency; Stripe's balance report Σ net of the balance transactions its payouts pay out (automatic_payout_id)."
        ),
        // Stripe pays out in each balance currency: past a few rows the table folds, as the other
        // secondary tables do.
        table.rows.count > 3
          ? .folded("Per report and payout currency (\(Grouped.count(table.rows.count)) rows)", table)
          : .table(table),
      ] + payoutLinesBlocks)
  }

  /// Stripe's payouts of payouts.csv summed per payout currency (what each pays, and the balance report
  /// rows behind it), in currency order; a currency whose sum overflows is left out (the run stops on it
  /// before the summary).
  var stripePayoutTotals: [(Currency, (amount: Int64, rows: Int))] {
    var sums: [Currency: (amount: Int64, rows: Int)] = [:]
    var overflowed: Set<Currency> = []
    for p in facts.payoutLines where p.store == .stripe && p.kind == .payout {
      var sum = sums[p.payoutCurrency] ?? (0, 0)
      var o = false
      sum.amount.add(p.payoutMinor, overflow: &o)
      if o { overflowed.insert(p.payoutCurrency) }
      sum.rows += p.rows
      sums[p.payoutCurrency] = sum
    }
    return sums.keys.sorted().filter { !overflowed.contains($0) }.map { ($0, sums[$0] ?? (0, 0)) }
  }

  /// Each payout of payouts.csv, folded under one line: store, payout, what it pays, and how many of its
  /// lines do not add up (docs/reports.md#payoutscsv).
  var payoutLinesBlocks: [SummarySection.Block] {
    let payouts = facts.payoutLines.filter { $0.kind == .payout }
    guard !payouts.isEmpty else { return [] }
    var table = SummaryTable(headers: ["store", "payout", "paid", "not adding up"], rightAligned: [2, 3])
    // One pass over the lines (a payout of a long history has thousands), not one per payout.
    struct PayoutKey: Hashable {
      var store: Store
      var id: String
    }
    var notAddingUp: [PayoutKey: Int] = [:]
    for line in facts.payoutLines where line.status != .addsUp {
      notAddingUp[PayoutKey(store: line.store, id: line.payoutId), default: 0] += 1
    }
    for p in payouts {
      let differing = notAddingUp[PayoutKey(store: p.store, id: p.payoutId)] ?? 0
      table.rows.append([
        p.store.rawValue, p.payoutId, Grouped.money(Money(minor: p.payoutMinor, currency: p.payoutCurrency)),
        Grouped.count(differing),
      ])
    }
    let noun = payouts.count == 1 ? "1 payout" : "\(Grouped.count(payouts.count)) payouts"
    return [.folded("What each payout is made of (payouts.csv, \(noun))", table)]
  }
}
