package import StoreReconCore

/// The store keys a fetch asks the stores about: App Store original transaction ids, Play purchase
/// tokens. Filled by the command line from the app's rows (entitlements and credentials, CSV or
/// PostgreSQL), and by each source from what it fetched before and what the stores' notifications name.
package struct KnownKeys: Sendable {
  private var keys: [Store: Set<String>] = [:]

  /// No keys.
  package init() {}

  /// Adds `key` for `store` (an empty key is ignored).
  package mutating func add(_ key: String, for store: Store) {
    guard !key.isEmpty else { return }
    keys[store, default: []].insert(key)
  }

  /// Adds every key of `other`.
  package mutating func merge(_ other: KnownKeys) {
    for (store, set) in other.keys { keys[store, default: []].formUnion(set) }
  }

  /// The keys of `store`, sorted (so requests go out in the same order every day).
  package func keys(for store: Store) -> [String] { (keys[store] ?? []).sorted() }

  /// How many keys `store` has.
  package func count(for store: Store) -> Int { keys[store]?.count ?? 0 }
}
