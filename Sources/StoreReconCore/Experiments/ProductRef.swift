/// A product an experiment arm offers, as the config names it: a product name (docs/inputs.md#product-names), optionally prefixed with its store (`play:pro:monthly`, `app_store:com.acme.pro.monthly`).
package struct ProductRef: Hashable, Sendable, CustomStringConvertible {
  /// The store the prefix names; `nil` when the name has no prefix (it then matches either store).
  package var store: Store?
  /// The product name without the prefix (`pro:monthly`).
  package var name: String

  /// Creates a reference.
  package init(store: Store?, name: String) {
    self.store = store
    self.name = name
  }

  /// Parses `play:pro:monthly`, `app_store:com.acme.pro.monthly`, `stripe:…` or a bare name.
  package init(parsing text: String) {
    for store in Store.allCases {
      let prefix = store.rawValue + ":"
      if text.hasPrefix(prefix) && text.count > prefix.count {
        self.init(store: store, name: String(text.dropFirst(prefix.count)))
        return
      }
    }
    self.init(store: nil, name: text)
  }

  /// Whether `productId` sold by `store` is this product.
  package func matches(_ productId: String, store: Store) -> Bool {
    productId == name && (self.store == nil || self.store == store)
  }

  /// The name as the config writes it.
  package var description: String { store.map { "\($0.rawValue):\(name)" } ?? name }
}
