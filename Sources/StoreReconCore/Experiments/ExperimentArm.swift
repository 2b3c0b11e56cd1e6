/// One arm of a price experiment: its id, its intended share of users and the products it offers.
package struct ExperimentArm: Sendable, Equatable {
  /// The arm id as the assignments name it (`control`, `high`).
  package var id: String
  /// Intended weight; arms are meant to receive users in proportion to their weights.
  package var weight: Int64
  /// The products this arm offers.
  package var products: [ProductRef]

  /// Creates an arm.
  package init(id: String, weight: Int64, products: [ProductRef]) {
    self.id = id
    self.weight = weight
    self.products = products
  }

  /// Whether this arm offers `productId` in `store`.
  package func offers(_ productId: String, store: Store) -> Bool {
    products.contains { $0.matches(productId, store: store) }
  }
}
