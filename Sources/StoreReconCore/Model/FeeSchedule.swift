/// The store fee schedule, in basis points of the price before tax (10000 = 100 %).
///
/// Defaults: App Store 30 %, 15 % for a small-business developer, and 15 % for a subscription charge
/// at least one year after its chain's first paid charge; Play 15 % for subscriptions and a
/// configurable rate for one-time products (30 % by default); Stripe the configured rate (`fees.stripe.bp`,
/// 0 by default: Stripe's price list depends on the account's country and card mix).
/// These are estimates: the stores' settlement files are the final word.
package struct FeeSchedule: Sendable, Equatable {
  /// App Store standard commission.
  package var appStoreStandardBp: Int64 = 3000
  /// The developer is in the App Store Small Business Program (every App Store charge at the reduced rate).
  package var appStoreSmallBusiness = false
  /// App Store reduced commission of the Small Business Program.
  package var appStoreSmallBusinessBp: Int64 = 1500
  /// App Store commission on a subscription charge ≥ 1 year after the chain's first paid charge.
  package var appStoreAfterFirstYearBp: Int64 = 1500
  /// Play commission on subscriptions.
  package var playSubscriptionBp: Int64 = 1500
  /// Play commission on one-time products (in-app products, paid apps).
  package var playOneTimeBp: Int64 = 3000
  /// Stripe's processing fee on a web charge (`fees.stripe.bp`).
  package var stripeBp: Int64 = 0

  /// The default schedule.
  package init() {}

  /// The commission in basis points on one charge.
  ///
  /// - Parameters:
  ///   - store: the store that took the charge.
  ///   - subscription: the product is a subscription.
  ///   - chargedAt: the charge instant.
  ///   - chainFirstPaidAt: the first paid charge of the charge's chain.
  package func basisPoints(store: Store, subscription: Bool, chargedAt: Instant, chainFirstPaidAt: Instant)
    -> Int64
  {
    basisPoints(
      store: store, subscription: subscription, chargedAt: chargedAt,
      firstAnniversary: FeeSchedule.firstAnniversary(chainFirstPaidAt))
  }

  /// One year after a chain's first paid charge: from then on an App Store subscription charge pays
  /// the reduced commission.
  static func firstAnniversary(_ chainFirstPaidAt: Instant) -> Instant {
    BillingPeriod(months: 12).advance(chainFirstPaidAt)
  }

  /// ``basisPoints(store:subscription:chargedAt:chainFirstPaidAt:)`` with the chain's
  /// ``firstAnniversary(_:)`` worked out once for all its charges.
  func basisPoints(store: Store, subscription: Bool, chargedAt: Instant, firstAnniversary: Instant) -> Int64 {
    switch store {
    case .appStore:
      if appStoreSmallBusiness { return appStoreSmallBusinessBp }
      if subscription && chargedAt >= firstAnniversary { return appStoreAfterFirstYearBp }
      return appStoreStandardBp
    case .play:
      return subscription ? playSubscriptionBp : playOneTimeBp
    case .stripe:
      return stripeBp
    }
  }

  /// Proceeds of one charge: gross − tax − fee, where fee = (gross − tax) × bp / 10000 rounded once
  /// by `rounding`. Returns the fee and the proceeds.
  package static func proceeds(grossMinor: Int64, taxMinor: Int64, basisPoints: Int64, rounding: RoundingRule)
    -> (fee: Int64, proceeds: Int64)
  {
    let base = grossMinor - min(max(taxMinor, 0), grossMinor)
    let fee = rounding.scale(base, numerator: basisPoints, denominator: 10_000)
    return (fee, base - fee)
  }
}
