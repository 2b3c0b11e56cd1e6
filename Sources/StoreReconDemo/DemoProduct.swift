import StoreReconCore

/// A product Acme sells, in one store. Names follow docs/inputs.md#product-names (`com.acme.pro.monthly`, `pro:monthly`).
enum DemoProduct: Int, CaseIterable, Sendable {
  case appleMonthly, appleMonthlyHi, appleYearly, appleLifetime, appleCoins
  case playMonthly, playMonthlyHi, playYearly, playLifetime
  /// Play installments base plan: a yearly commitment paid in 12 monthly installments, each at the
  /// monthly price (docs/rules.md#commitment-plans).
  case playInstallments

  /// The price tier, which picks the price in a country's price list.
  enum Tier: Int, Sendable { case monthly, monthlyHi, yearly, lifetime, coins }

  /// The store selling the product.
  var store: Store {
    switch self {
    case .appleMonthly, .appleMonthlyHi, .appleYearly, .appleLifetime, .appleCoins: return .appStore
    case .playMonthly, .playMonthlyHi, .playYearly, .playLifetime, .playInstallments: return .play
    }
  }

  /// The product's name in store data, app rows, config and reports.
  var name: String {
    switch self {
    case .appleMonthly: return "com.acme.pro.monthly"
    case .appleMonthlyHi: return "com.acme.pro.monthly.hi"
    case .appleYearly: return "com.acme.pro.yearly"
    case .appleLifetime: return "com.acme.lifetime"
    case .appleCoins: return "com.acme.coins100"
    case .playMonthly: return "pro:monthly"
    case .playMonthlyHi: return "pro:monthly-hi"
    case .playYearly: return "pro:yearly"
    case .playLifetime: return "lifetime"
    case .playInstallments: return "pro:yearly-installments"
    }
  }

  /// The price tier.
  var tier: Tier {
    switch self {
    case .appleMonthly, .playMonthly, .playInstallments: return .monthly
    case .appleMonthlyHi, .playMonthlyHi: return .monthlyHi
    case .appleYearly, .playYearly: return .yearly
    case .appleLifetime, .playLifetime: return .lifetime
    case .appleCoins: return .coins
    }
  }

  /// Calendar months in one billing period; `nil` for one-time products.
  var months: Int? {
    switch tier {
    case .monthly, .monthlyHi: return 1
    case .yearly: return 12
    case .lifetime, .coins: return nil
    }
  }

  /// Catalog type: `subscription`, `non_consumable` or `consumable`.
  var catalogType: String {
    switch tier {
    case .monthly, .monthlyHi, .yearly: return "subscription"
    case .lifetime: return "non_consumable"
    case .coins: return "consumable"
    }
  }

  /// Catalog billing period (ISO 8601 duration) for subscriptions.
  var catalogPeriod: String? {
    switch tier {
    case .monthly, .monthlyHi: return "P1M"
    case .yearly: return "P1Y"
    case .lifetime, .coins: return nil
    }
  }

  /// Apple `type`.
  var appleType: String {
    switch tier {
    case .monthly, .monthlyHi, .yearly: return "Auto-Renewable Subscription"
    case .lifetime: return "Non-Consumable"
    case .coins: return "Consumable"
    }
  }

  /// Play SKU ID (`productId` of the subscription or one-time product).
  var playSku: String { tier == .lifetime ? "lifetime" : "pro" }

  /// Play base plan id; empty for one-time products.
  var playBasePlan: String {
    if self == .playInstallments { return "yearly-installments" }
    switch tier {
    case .monthly: return "monthly"
    case .monthlyHi: return "monthly-hi"
    case .yearly: return "yearly"
    case .lifetime, .coins: return ""
    }
  }

  /// Play `Product Type` column.
  var playProductType: String { tier == .lifetime ? "inapp" : "subscription" }

  /// Product title as the Play sales report writes it (with commas, so CSV quoting is exercised).
  var playTitle: String {
    switch tier {
    case .monthly: return "Acme Pro, monthly (Acme: Notes, Lists & Tasks)"
    case .monthlyHi: return "Acme Pro, monthly (Acme: Notes, Lists & Tasks)"
    case .yearly: return "Acme Pro, yearly (Acme: Notes, Lists & Tasks)"
    case .lifetime, .coins: return "Acme Lifetime Unlock (Acme: Notes, Lists & Tasks)"
    }
  }

  /// The realistic world's `Product Title`: as a store listing names it, with commas, quotes and
  /// non-ASCII letters.
  var realisticPlayTitle: String {
    switch tier {
    case .monthly, .monthlyHi: return "Acme Pro – 1 month, \"Plus\" (Acme: Notes, Lists & Tâches)"
    case .yearly: return "Acme Pro – 12 months, \"Plus\" (Acme: Notes, Lists & Tâches)"
    case .lifetime, .coins: return "Acme Lifetime Unlock, « forever » (Acme: Notes, Lists & Tâches)"
    }
  }

  /// Units one coin purchase credits (the catalog's `units`).
  static let coinUnits: Int64 = 100

  /// The catalog's `tier`: every Acme Pro subscription grants Pro; `nil` for one-time products.
  var catalogTier: String? { isSubscription ? "pro" : nil }

  /// Is this an auto-renewable subscription?
  var isSubscription: Bool { months != nil }

  /// The product for `tier` in `store` (Play has no consumable; it maps to Apple's).
  static func product(_ tier: Tier, in store: Store) -> DemoProduct {
    switch (store, tier) {
    case (.play, .monthly): return .playMonthly
    case (.play, .monthlyHi): return .playMonthlyHi
    case (.play, .yearly): return .playYearly
    case (.play, .lifetime): return .playLifetime
    case (_, .monthly): return .appleMonthly
    case (_, .monthlyHi): return .appleMonthlyHi
    case (_, .yearly): return .appleYearly
    case (_, .lifetime): return .appleLifetime
    case (_, .coins): return .appleCoins
    }
  }
}
