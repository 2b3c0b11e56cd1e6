/// What the config's catalog says about the products: their type, billing period, the units a
/// consumable purchase is worth and the tier a subscription grants.
///
/// Keys are product names as docs/inputs.md#product-names defines them, optionally prefixed with the store
/// (`play:pro:monthly`, `app_store:com.acme.pro.monthly`); a prefixed entry wins over a bare one.
package struct Catalog: Sendable {
  /// What is known of one product.
  package struct Product: Sendable, Equatable {
    /// `subscription`, `non_consumable`, `consumable`, or `nil` when the catalog does not say.
    package var type: ProductType?
    /// The billing period of a subscription.
    package var period: BillingPeriod?
    /// Units one purchase of a consumable credits (`"units": 100` coins); `nil` when the catalog does
    /// not say.
    package var units: Int64?
    /// The tier the product grants (`"tier": "pro"`): chains of one tier bought by one person are double
    /// billing where their paid periods overlap. `nil`: the product is its own tier.
    package var tier: String?

    /// Creates a catalog entry.
    package init(
      type: ProductType? = nil, period: BillingPeriod? = nil, units: Int64? = nil, tier: String? = nil
    ) {
      self.type = type
      self.period = period
      self.units = units
      self.tier = tier
    }
  }

  private var entries: [String: Product] = [:]

  /// An empty catalog: every subscription bills monthly.
  package init() {}

  /// Adds or replaces the entry for `name` (with or without a store prefix).
  package mutating func set(_ name: String, _ product: Product) { entries[name] = product }

  /// The entry for `productId` sold by `store`, if the catalog has one.
  package func product(_ productId: String, store: Store) -> Product? {
    entries["\(store.rawValue):\(productId)"] ?? entries[productId]
  }

  /// The billing period of `productId` in `store`; one month where the catalog does not say.
  package func period(_ productId: String, store: Store) -> BillingPeriod {
    product(productId, store: store)?.period ?? .oneMonth
  }

  /// The tier `productId` of `store` grants: the catalog's `tier`, else the product itself
  /// (`app_store:com.acme.pro.monthly`).
  package func tier(_ productId: String, store: Store) -> String {
    product(productId, store: store)?.tier ?? "\(store.rawValue):\(productId)"
  }

  /// Units one purchase of `productId` in `store` credits, where the catalog says.
  package func units(_ productId: String, store: Store) -> Int64? {
    product(productId, store: store)?.units
  }

  /// Every entry, for the manifest.
  package var allEntries: [String: Product] { entries }
}
