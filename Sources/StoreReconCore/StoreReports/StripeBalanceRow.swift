/// One row of Stripe's itemized balance change report (`balance_change_from_activity.itemized`): one
/// balance transaction, its money in major units of ``currency`` read as exact minor units
/// (docs/inputs.md#stripe-balance-reports).
package struct StripeBalanceRow: Sendable, Equatable {
  /// `balance_transaction_id` (`txn_…`).
  package var id: String
  /// `created_utc` (else `created`).
  package var created: Instant
  /// `available_on_utc` (else `available_on`), where written.
  package var availableOn: Instant?
  /// `currency`: the balance's currency, in which gross, fee and net are.
  package var currency: Currency
  /// `gross`, `fee` (positive when Stripe keeps it) and `net`, minor units of ``currency``.
  package var grossMinor: Int64
  package var feeMinor: Int64
  package var netMinor: Int64
  /// `reporting_category` as written (`charge`, `refund`, `dispute`, `fee`, …).
  package var category: String
  /// `source_id`: the object behind the balance transaction (`ch_…`, `re_…`, `du_…`, `po_…`).
  package var sourceId: String = ""
  /// `charge_id`, `payment_intent_id`, `invoice_id`, `subscription_id`, `customer_id`.
  package var chargeId: String = ""
  package var paymentIntentId: String = ""
  package var invoiceId: String = ""
  package var subscriptionId: String = ""
  package var customerId: String = ""
  /// `automatic_payout_id` (`po_…`): the payout the transaction's net went out in.
  package var payoutId: String = ""
  /// `automatic_payout_effective_at_utc` (else `automatic_payout_effective_at`): the payout's arrival.
  package var payoutAt: Instant?
  /// `exchange_rate` as written (a decimal; empty where the column is absent or blank).
  package var exchangeRate: String = ""
  /// `customer_facing_amount` in `customer_facing_currency` (minor units), where written.
  package var customerFacingMinor: Int64?
  package var customerFacingCurrency: Currency?
  /// Where the row was read.
  package var origin: Origin

  /// Creates a row.
  package init(
    id: String, created: Instant, currency: Currency, grossMinor: Int64, feeMinor: Int64, netMinor: Int64,
    category: String, origin: Origin
  ) {
    self.id = id
    self.created = created
    self.currency = currency
    self.grossMinor = grossMinor
    self.feeMinor = feeMinor
    self.netMinor = netMinor
    self.category = category
    self.origin = origin
  }

  /// The UTC day of `instant`.
  package static func utcDay(_ instant: Instant) -> CivilDate {
    let ms = instant.ms
    return CivilDate(daysSinceEpoch: ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000)
  }

  /// The charge the row belongs to: `charge_id`, else a `ch_`/`py_` `source_id`.
  package var charge: String {
    if !chargeId.isEmpty { return chargeId }
    return sourceId.hasPrefix("ch_") || sourceId.hasPrefix("py_") ? sourceId : ""
  }

  /// `gross` and `fee` in `target` (the charge's currency): as they are when ``currency`` is `target`;
  /// else `customer_facing_amount` where written in `target` (the fee in its proportion, half-even), else
  /// through `exchange_rate` (amount in `target` × rate = amount in ``currency``; each divided by the
  /// rate and rounded half-even to `target`'s minor unit); `nil` where neither is stated.
  package func amounts(in target: Currency) -> (gross: Int64, fee: Int64)? {
    if currency == target { return (grossMinor, feeMinor) }
    if let facing = customerFacingMinor, customerFacingCurrency == target {
      let sign: Int64 = (grossMinor < 0) == (facing < 0) ? 1 : -1
      let gross = facing * sign
      guard grossMinor != 0,
        let fee = StripeRate.scaled(feeMinor, numerator: Int128(gross), denominator: Int128(grossMinor))
      else { return grossMinor == 0 ? (gross, 0) : nil }
      return (gross, fee)
    }
    guard let rate = StripeRate(exchangeRate),
      let gross = rate.toCharge(grossMinor, from: currency, to: target),
      let fee = rate.toCharge(feeMinor, from: currency, to: target)
    else { return nil }
    return (gross, fee)
  }
}

/// A decimal exchange rate as Stripe states it on a balance transaction (`exchange_rate`: an amount in
/// the charge's currency × the rate = the amount in the balance's currency), applied exactly.
package struct StripeRate: Sendable, Equatable {
  /// The digits, and how many of them follow the point.
  package var mantissa: Int128
  package var scale: Int

  /// The rate `text` spells (`1.0845`, `0.9`); `nil` for a blank, negative, zero or malformed text, or
  /// one of more than 18 digits after the point.
  package init?(_ text: String) {
    var mantissa: Int128 = 0
    var scale = 0
    var point = false
    var digits = 0
    for b in text.utf8 {
      if b == 0x2E {
        guard !point else { return nil }
        point = true
      } else if b >= 0x30 && b <= 0x39 {
        digits += 1
        guard digits <= 30 else { return nil }
        mantissa = mantissa * 10 + Int128(b - 0x30)
        if point { scale += 1 }
      } else {
        return nil
      }
    }
    guard digits > 0, mantissa > 0, scale <= 18 else { return nil }
    self.mantissa = mantissa
    self.scale = scale
  }

  /// `amount` minor units of `balance` in `charge`'s minor units: amount ÷ rate, rounded half-even;
  /// `nil` where a currency has no minor unit or the result does not fit.
  package func toCharge(_ amount: Int64, from balance: Currency, to charge: Currency) -> Int64? {
    guard let from = balance.minorUnits, let to = charge.minorUnits else { return nil }
    // amount / 10^from / (mantissa / 10^scale) × 10^to = amount × 10^(scale + to) / (mantissa × 10^from)
    var numerator = Int128(amount)
    for _ in 0..<(scale + to) { numerator *= 10 }
    var denominator = mantissa
    for _ in 0..<from { denominator *= 10 }
    return StripeRate.divided(numerator, denominator)
  }

  /// `value × numerator ÷ denominator`, rounded half-even; `nil` when it does not fit.
  package static func scaled(_ value: Int64, numerator: Int128, denominator: Int128) -> Int64? {
    guard denominator != 0 else { return nil }
    let (product, overflow) = Int128(value).multipliedReportingOverflow(by: numerator)
    guard !overflow else { return nil }
    return denominator < 0 ? divided(-product, -denominator) : divided(product, denominator)
  }

  /// `numerator ÷ denominator` (denominator > 0), rounded half-even; `nil` when it does not fit an Int64.
  static func divided(_ numerator: Int128, _ denominator: Int128) -> Int64? {
    var quotient = numerator / denominator
    let remainder = numerator % denominator
    let twice = (remainder < 0 ? -remainder : remainder) * 2
    if twice > denominator || (twice == denominator && quotient % 2 != 0) {
      quotient += numerator < 0 ? -1 : 1
    }
    return Int64(exactly: quotient)
  }
}
