import StoreReconCore

/// The stores' own money reports for the demo world: Apple Summary Sales reports (one per Pacific day
/// of the 30 days before the as-of day) and Google Play earnings reports (the last 3 full UTC months
/// before T), with a few planted tie-out differences.
///
/// While the world is written, every App Store transaction and every Play sales row is recorded here
/// the way the tie-out's ledger side counts it (docs of the rules: issue 11; the brief of the demo).
/// Unplanted, the reports say exactly what the feed says; the plants then change a few rows. The
/// truth is computed back from the rows as written, against the ledger, by the same rules, and the
/// generator fails if that disagrees with what it planted.
final class DemoStoreReports {
  /// One cell of the tie-out: Apple (Pacific day, product, country, currency); Play (month, SKU,
  /// country, currency).
  struct CellKey: Hashable, Comparable {
    var day: CivilDate
    var productId: String
    var country: String
    var currency: String

    static func < (lhs: CellKey, rhs: CellKey) -> Bool {
      (lhs.day, lhs.productId, lhs.country, lhs.currency) < (
        rhs.day, rhs.productId, rhs.country, rhs.currency
      )
    }
  }

  /// What one side of a cell counts.
  struct Money: Equatable {
    var units: Int64 = 0
    var gross: Int64 = 0
    var free: Int64 = 0
  }

  /// A Summary Sales report row's key: the columns rows aggregate over.
  struct AppleRowKey: Hashable, Comparable {
    var day: CivilDate
    var product: DemoProduct
    var country: String
    /// Customer price per unit, minor units; negative on refund rows, 0 on free rows.
    var unitPrice: Int64
    /// `New` or `Renewal` for auto-renewable subscriptions, else empty.
    var subscription: String

    static func < (lhs: AppleRowKey, rhs: AppleRowKey) -> Bool {
      (lhs.day, lhs.product.rawValue, lhs.country, lhs.unitPrice, lhs.subscription)
        < (rhs.day, rhs.product.rawValue, rhs.country, rhs.unitPrice, rhs.subscription)
    }

    func cell(_ currency: String) -> CellKey {
      CellKey(day: day, productId: product.name, country: country, currency: currency)
    }
  }

  /// One Play sales row (a production chain's `Charged` or `Refund`) in an earnings month.
  struct PlaySale {
    var orderId: String
    var at: Instant
    var month: CivilDate
    var refund: Bool
    var product: DemoProduct
    var country: DemoCountry
    var device: String
    /// The chain's owner is assigned to the price experiment.
    var inExperiment = false
    /// The sales report has the row; `false`: a refund only the earnings report shows.
    var inSales = true
    /// The earnings report has the row's `Charge`/`Charge refund`; `false`: a refund only the sales
    /// report shows.
    var inEarnings = true

    /// A refund one Play report shows and the other lacks.
    var isOneSided: Bool { !inSales || !inEarnings }

    var cell: CellKey {
      CellKey(
        day: month, productId: product.playSku, country: country.alpha2, currency: country.currency.code)
    }
  }

  /// A candidate negative control: the best transaction so far for one purpose.
  struct ControlCandidate {
    var cell: CellKey
    var what: String
    var score: Int64
    var id: String
  }

  let t: Instant
  let seed: UInt64
  /// Pacific days the Apple reports cover, oldest first.
  let appleDays: [CivilDate]
  /// Earnings months (first days), oldest first.
  let playMonths: [CivilDate]
  /// Countries by alpha-2.
  /// The world's countries by alpha-2 (and, in a world too big to have an empty cell, the storefront
  /// of the planted unlock, which the world never sells in).
  var countries: [String: DemoCountry]
  let countryOrder: [String]

  /// Summary Sales rows (units, signed).
  var appleRows: [AppleRowKey: Int64] = [:]
  /// The ledger side of the Apple cells.
  var appleLedger: [CellKey: Money] = [:]
  /// Negative controls, per purpose.
  var controls: [String: ControlCandidate] = [:]
  /// Play sales rows of the earnings months, in the order written.
  var playSales: [PlaySale] = []
  /// App Store units and Earned of the fiscal month per currency code (DemoStoreReports+Payouts.swift).
  var appleEarned: [String: (units: Int64, earned: Int64)] = [:]
  /// Users assigned to the price experiment: their orders are never planted differently, so that the
  /// readout's settled proceeds (the earnings report's) equal the experiment truth's.
  var experimentUsers: Set<String> = []
  /// The Stripe tie-out rows the balance report was built to give (``DemoStripeBalance``).
  var stripeOrders: [PlantedTieOutOrder] = []

  init(asOf: CivilDate, t: Instant, seed: UInt64, countries: [DemoCountry]) {
    self.t = t
    self.seed = seed
    appleDays = (1...30).reversed().map { CivilDate(daysSinceEpoch: asOf.daysSinceEpoch - Int64($0)) }
    playMonths = DemoStoreReports.earningsMonths(t: t)
    self.countries = Dictionary(uniqueKeysWithValues: countries.map { ($0.alpha2, $0) })
    countryOrder = countries.map(\.alpha2)
  }

  /// The earnings months (first days), oldest first: the last three full UTC months that end at or
  /// before `t`.
  static func earningsMonths(t: Instant) -> [CivilDate] {
    let last = DemoCalendar.date(t.adding(ms: -1))
    var month = CivilDate(year: last.year, month: last.month, day: 1)
    if last.next.day != 1 { month = DemoStoreReports.previousMonth(month) }
    var months: [CivilDate] = []
    for _ in 0..<3 {
      months.insert(month, at: 0)
      month = DemoStoreReports.previousMonth(month)
    }
    return months
  }

  static func previousMonth(_ month: CivilDate) -> CivilDate {
    month.month == 1
      ? CivilDate(year: month.year - 1, month: 12, day: 1)
      : CivilDate(year: month.year, month: month.month - 1, day: 1)
  }

  /// Does an Apple report cover this Pacific day?
  func covers(_ day: CivilDate) -> Bool {
    guard let first = appleDays.first, let last = appleDays.last else { return false }
    return day >= first && day <= last
  }

  // MARK: - Recording while the world is written

  /// Records one App Store transaction as the ledger side counts it: a Production, purchased
  /// transaction on the Pacific day of its purchase (price 0: a free unit), and its refund (a
  /// revocation with a reason, not an upgrade, at or before T) on the Pacific day of the revocation.
  func recordApple(_ chain: DemoChain, _ index: Int) {
    guard !chain.sandbox, !chain.familyShared else { return }
    let p = chain.periods[index]
    recordFiscal(chain, p)
    let quantity = Int64(p.quantity)
    let unit = p.priceMinor / quantity
    let currency = chain.country.currency.code
    let subscription =
      p.product.isSubscription ? (chain.periods[..<index].contains { !$0.isTrial } ? "Renewal" : "New") : ""
    let day = DemoPacific.day(p.start)
    if covers(day) {
      let key = AppleRowKey(
        day: day, product: p.product, country: chain.country.alpha2, unitPrice: unit,
        subscription: subscription)
      appleRows[key, default: 0] += quantity
      if p.priceMinor > 0 {
        appleLedger[key.cell(currency), default: Money()].units += quantity
        appleLedger[key.cell(currency), default: Money()].gross += p.priceMinor
        considerChargeControl(key.cell(currency), p)
      } else {
        appleLedger[key.cell(currency), default: Money()].free += quantity
      }
    }
    guard let r = p.revocation, r.kind != .familyRevoke, !p.isUpgraded, r.isEffective(at: t), p.priceMinor > 0
    else {
      return
    }
    let refundDay = DemoPacific.day(r.at)
    guard covers(refundDay) else { return }
    let key = AppleRowKey(
      day: refundDay, product: p.product, country: chain.country.alpha2, unitPrice: -unit,
      subscription: subscription)
    appleRows[key, default: 0] -= quantity
    appleLedger[key.cell(currency), default: Money()].units -= quantity
    appleLedger[key.cell(currency), default: Money()].gross -= p.priceMinor
    let score: Int64 = covers(day) && day != refundDay ? 0 : (day != refundDay ? 1 : -1)
    guard score >= 0 else { return }
    consider(
      "refund", key.cell(currency),
      "refund of transaction \(p.transactionId) at \(r.at) (Pacific \(refundDay)), charged at \(p.start) (Pacific \(day))",
      score: score, id: p.transactionId)
  }

  /// Keeps, per purpose, the charge closest to half past the hour next to Pacific midnight in UTC:
  /// in PDT (UTC−7) midnight is 07:00 UTC, in PST (UTC−8) 08:00 UTC.
  private func considerChargeControl(_ cell: CellKey, _ p: DemoPeriod) {
    let hour: Int64 = 3_600_000
    let utcDay = DemoCalendar.date(p.start)
    let msOfDay = p.start.ms - utcDay.startUTC.ms
    let daylight = DemoPacific.isDaylight(p.start)
    let midnight = (daylight ? 7 : 8) * hour
    let zone = daylight ? "PDT" : "PST"
    let pacific = DemoPacific.day(p.start)
    if msOfDay >= midnight - hour && msOfDay < midnight && covers(pacific) {
      consider(
        "before-\(zone)", cell,
        "charge \(p.transactionId) at \(p.start): \(zone), before Pacific midnight, day \(pacific)",
        score: abs(msOfDay - (midnight - hour / 2)), id: p.transactionId)
    } else if msOfDay >= midnight && msOfDay < midnight + hour {
      consider(
        "after-\(zone)", cell,
        "charge \(p.transactionId) at \(p.start): \(zone), after Pacific midnight, day \(pacific)",
        score: abs(msOfDay - (midnight + hour / 2)), id: p.transactionId)
    }
  }

  private func consider(_ purpose: String, _ cell: CellKey, _ what: String, score: Int64, id: String) {
    if let best = controls[purpose], (best.score, best.id) <= (score, id) { return }
    controls[purpose] = ControlCandidate(cell: cell, what: what, score: score, id: id)
  }

  /// Notes the users of `group` assigned to the price experiment (before its chains are written).
  func noteExperimentUsers(_ group: DemoGroup) {
    for a in group.assignments where a.experimentId == DemoBuilder.experimentId {
      experimentUsers.insert(a.userId)
    }
  }

  /// Records one Play sales row of a production chain, if it falls in an earnings month (UTC);
  /// `inSales` or `inEarnings` false: a refund only the other report shows.
  func recordPlaySale(
    _ chain: DemoChain, _ p: DemoPeriod, refund: Bool, at: Instant, device: String, inSales: Bool = true,
    inEarnings: Bool = true
  ) {
    let date = DemoCalendar.date(at)
    let month = CivilDate(year: date.year, month: date.month, day: 1)
    guard playMonths.contains(month) else { return }
    playSales.append(
      PlaySale(
        orderId: p.orderId, at: at, month: month, refund: refund, product: p.product, country: chain.country,
        device: device, inExperiment: experimentUsers.contains(chain.ownerId), inSales: inSales,
        inEarnings: inEarnings))
  }

  // MARK: - Rules

  /// The tie-out status of a cell.
  static func status(report: Money, ledger: Money) -> TieOutCell.Status {
    if report.units > ledger.units { return .reportMore }
    if report.units < ledger.units { return .reportLess }
    return report.gross == ledger.gross ? .match : .priceDiffers
  }

  /// Every status of `found` (non-`match`) counted, against what was planned; throws on a difference.
  static func verify<S: Hashable & RawRepresentable>(_ found: [S], planned: [S: Int], _ what: String) throws
  where S.RawValue == String {
    var counts: [S: Int] = [:]
    for s in found { counts[s, default: 0] += 1 }
    guard counts == planned else {
      let text = counts.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", ")
      let want = planned.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", ")
      throw DemoError.inconsistentTruth("\(what): the reports as written give \(text), planted \(want)")
    }
  }
}
