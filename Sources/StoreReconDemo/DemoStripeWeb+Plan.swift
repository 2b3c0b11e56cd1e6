import StoreReconCore

/// How a web subscription of the realistic world lives: its price, trial, renewals, churn, and the
/// controls money-wise (partial refunds, refunds of older invoices, disputes won, lost or open,
/// `cancel_at_period_end`, a failed renewal leaving it `past_due`).
extension DemoStripeWeb {
  /// Currencies the web checkout charges in (Stripe's smallest unit is the ISO minor unit in each);
  /// users elsewhere are charged in USD at the US price.
  static let currencies: Set<String> = [
    "USD", "EUR", "GBP", "CAD", "AUD", "CHF", "SEK", "NOK", "DKK", "PLN", "BRL", "MXN", "INR", "JPY", "KRW",
    "NZD", "SGD", "HKD", "CZK",
  ]

  /// A subscription of `user` created between `from` and `to`, before its invoices.
  func subscription(_ user: DemoUser, _ rng: inout DemoRandom, from: Instant, to: Instant)
    -> DemoWebSubscription
  {
    let created = Instant(ms: rng.int64(from.ms, max(from.ms, to.ms))).wholeSeconds
    var country = user.country
    if !DemoStripeWeb.currencies.contains(country.currency.code), let us = usCountry { country = us }
    let price: DemoWebSubscription.Price =
      created.ms < DemoWebSubscription.Price.monthly.created * 1000
      ? .legacyMonthly : (rng.chance(250) ? .yearly : .monthly)
    var sub = DemoWebSubscription(
      id: DemoStripeIds.id("sub_1", &rng), customer: "cus_" + DemoStripeIds.random(14, &rng),
      item: "si_" + DemoStripeIds.random(14, &rng), price: price, currency: country.currency,
      country: country,
      created: created, userId: user.id)
    if created >= CivilDate(year: 2024, month: 1, day: 1).startUTC && rng.chance(350) {
      sub.trialEnd = created.adding(days: 7)
    }
    switch rng.weighted([700, 200, 100]) {
    case 0: break
    case 1:
      sub.metadataOnSubscription = false
      sub.metadataOnCustomer = true
    default: sub.metadataOnSubscription = false
    }
    return sub
  }

  /// The subscription's invoices up to T and how it ended; with `controls`, the money-only cases.
  func renew(_ sub: inout DemoWebSubscription, controls: Bool, _ rng: inout DemoRandom) {
    var anchor = sub.created
    if let trialEnd = sub.trialEnd {
      sub.invoices.append(
        invoice(sub, start: sub.created, end: trialEnd, amount: 0, reason: "subscription_create", &rng))
      if trialEnd > t { return }
      if !rng.chance(620) {
        sub.canceledAt = sub.created.adding(ms: 1000 * rng.int64(3_600, 6 * 86_400))
        sub.endedAt = trialEnd
        return
      }
      anchor = trialEnd
    }
    let months = sub.price.months
    var k = 0
    while true {
      let start = DemoCalendar.addMonths(anchor, k * months)
      guard start < t.adding(ms: -10_000) else { break }
      let end = DemoCalendar.addMonths(anchor, (k + 1) * months)
      let reason = k == 0 && sub.trialEnd == nil ? "subscription_create" : "subscription_cycle"
      var inv = invoice(sub, start: start, end: end, amount: amount(sub), reason: reason, &rng)
      if controls && k > 0 && end > t && start < t.adding(days: -1) && rng.chance(8) {
        inv.open = true
        sub.invoices.append(inv)
        break
      }
      sub.invoices.append(inv)
      if end > t {
        if controls && rng.chance(30) {
          sub.cancelAtPeriodEnd = true
          sub.canceledAt = Instant(ms: rng.int64(start.ms, t.ms - 1000)).wholeSeconds
        }
        break
      }
      if rng.chance(months == 1 ? 38 : 280) {
        let canceled = Instant(ms: rng.int64(start.ms + 3_600_000, end.ms - 3_600_000)).wholeSeconds
        sub.canceledAt = canceled
        if rng.chance(100) {
          sub.endedAt = canceled
        } else {
          sub.cancelAtPeriodEnd = true
          sub.endedAt = end
        }
        break
      }
      k += 1
    }
    if controls { moneyBackControls(&sub, &rng) }
  }

  /// Partial refunds, full refunds of older invoices and disputes (won, open, and lost on older
  /// invoices): money moves, and no finding.
  private func moneyBackControls(_ sub: inout DemoWebSubscription, _ rng: inout DemoRandom) {
    let latest = sub.invoices.count - 1
    for i in sub.invoices.indices where !sub.invoices[i].open && !sub.invoices[i].free {
      let inv = sub.invoices[i]
      let at = inv.paidAt.adding(ms: 1000 * rng.int64(7_200, 12 * 86_400)).wholeSeconds
      guard at < t.adding(ms: -60_000) else { continue }
      switch rng.below(1000) {
      case 0..<4:
        sub.invoices[i].refunds.append(
          moneyBack("re_3", amount: max(1, inv.amount / 2), at: at, status: "succeeded", &rng))
      case 4..<6 where i < latest:
        sub.invoices[i].refunds.append(
          moneyBack("re_3", amount: inv.amount, at: at, status: "succeeded", &rng))
      case 6..<8:
        let opened = at.adding(days: rng.int64(2, 40))
        guard opened < t.adding(ms: -60_000) else { continue }
        var dispute = moneyBack("du_1", amount: inv.amount, at: opened, status: "needs_response", &rng)
        let closed = opened.adding(days: rng.int64(20, 70)).wholeSeconds
        if closed < t {
          dispute.closedAt = closed
          dispute.status = i < latest && rng.chance(300) ? "lost" : "won"
          if dispute.status == "won" { dispute.reversalTransaction = DemoStripeIds.id("txn_1", &rng) }
        }
        sub.invoices[i].dispute = dispute
      default:
        continue
      }
    }
  }

  /// A refund or dispute of `amount` at `at`.
  func moneyBack(
    _ prefix: String, amount: Int64, at: Instant, status: String, _ rng: inout DemoRandom
  ) -> DemoWebSubscription.MoneyBack {
    DemoWebSubscription.MoneyBack(
      id: DemoStripeIds.id(prefix, &rng), balanceTransaction: DemoStripeIds.id("txn_3", &rng), amount: amount,
      at: at.wholeSeconds, status: status)
  }

  /// The price of one period of `sub` in its currency (minor units).
  func amount(_ sub: DemoWebSubscription) -> Int64 {
    sub.country.price(sub.price == .yearly ? .yearly : .monthly)
  }

  /// An invoice for the period `start`–`end`, paid minutes after it starts.
  private func invoice(
    _ sub: DemoWebSubscription, start: Instant, end: Instant, amount: Int64, reason: String,
    _ rng: inout DemoRandom
  ) -> DemoWebSubscription.Invoice {
    let start = start.wholeSeconds
    let paid = min(
      start.adding(ms: 1000 * rng.int64(amount == 0 ? 1 : 40, amount == 0 ? 3 : 3_900)), t.adding(ms: -2000))
    let tax =
      sub.country.taxIncluded
      ? RoundingRule.halfEven.scale(
        amount, numerator: sub.country.taxBasisPoints, denominator: 10_000 + sub.country.taxBasisPoints) : 0
    let charge = DemoStripeIds.id("ch_3", &rng)
    return DemoWebSubscription.Invoice(
      id: DemoStripeIds.id("in_1", &rng), line: DemoStripeIds.id("il_1", &rng), charge: charge,
      intent: "pi_" + charge.dropFirst(3).prefix(16) + DemoStripeIds.random(8, &rng),
      balanceTransaction: "txn_" + charge.dropFirst(3).prefix(16) + DemoStripeIds.random(8, &rng),
      invoicePayment: DemoStripeIds.id("inpay_1", &rng), periodStart: start, periodEnd: end.wholeSeconds,
      paidAt: paid.wholeSeconds, amount: amount, tax: tax, billingReason: reason)
  }
}
