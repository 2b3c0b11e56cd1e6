/// The dispute columns of the revenue table, from Stripe's balance report
/// (docs/tieout.md#disputes-in-revenuecsv).
///
/// Each `dispute` and `dispute_reversal` row of the report created by T counts on its `created_utc` day
/// (in the config's time zone) under store `stripe`, the product and currency of the live charge of the
/// feed it names (`charge_id`, else a `ch_`/`py_` `source_id`): its `gross`, negated, in
/// ``RevenueRow/disputedMinor`` and its `fee` in ``RevenueRow/disputeFeesMinor``, taken into the charge's
/// currency as the tie-out does. A row whose charge the feed does not hold (so a partition counts the
/// disputes of its own chains only), or that states no way into the charge's currency, is left out.
package enum RevenueDisputes {
  /// The report categories that move dispute money.
  static let categories: Set<String> = ["dispute", "dispute_reversal"]

  /// `rows` with the dispute columns set, and a row (no charges, proceeds 0 `settled`) added for a day,
  /// product and currency that has disputes only; sorted by day, store, product and currency.
  package static func apply(
    _ rows: [RevenueRow], feed: [StripeFeedLine], report: [StripeBalanceRow], asOf: Instant,
    dayOf: (Instant) -> CivilDate
  ) -> [RevenueRow] {
    let disputeRows = report.filter { categories.contains($0.category) && $0.created.ms <= asOf.ms }
    guard !disputeRows.isEmpty else { return rows }
    var charges: [String: StripeFeedLine] = [:]
    for line in feed where line.kind == .charge && line.live && !line.chargeId.isEmpty {
      if charges[line.chargeId] == nil { charges[line.chargeId] = line }
    }
    struct Key: Hashable {
      var day: CivilDate
      var product: String
      var currency: Currency
    }
    var sums: [Key: (disputed: Int64, fees: Int64, overflowed: Bool)] = [:]
    for row in disputeRows {
      guard let charge = charges[row.charge], let (gross, fee) = row.amounts(in: charge.currency) else {
        continue
      }
      let key = Key(day: dayOf(row.created), product: charge.productId, currency: charge.currency)
      var sum = sums[key] ?? (0, 0, false)
      sum.disputed.subtract(gross, overflow: &sum.overflowed)
      sum.fees.add(fee, overflow: &sum.overflowed)
      sums[key] = sum
    }
    var out = rows
    var index: [Key: Int] = [:]
    for (i, row) in rows.enumerated() where row.store == .stripe {
      index[Key(day: row.day, product: row.productId, currency: row.currency)] = i
    }
    for (key, sum) in sums {
      let i: Int
      if let found = index[key] {
        i = found
      } else {
        i = out.count
        // No charge, no proceeds: nothing in it is estimated. `settled` is also what a partitioned run's
        // merge needs: a row of disputes only must not turn another partition's settled row estimated.
        var row = RevenueRow(day: key.day, store: .stripe, productId: key.product, currency: key.currency)
        row.proceedsSource = .settled
        out.append(row)
      }
      out[i].disputedMinor = sum.disputed
      out[i].disputeFeesMinor = sum.fees
      if sum.overflowed { out[i].overflowed = true }
    }
    guard out.count > rows.count else { return out }
    return out.sorted { a, b in
      if a.day != b.day { return a.day < b.day }
      if a.store != b.store { return a.store < b.store }
      if a.productId != b.productId { return a.productId < b.productId }
      return a.currency < b.currency
    }
  }
}
