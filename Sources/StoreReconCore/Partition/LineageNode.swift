/// The names of the things a lineage joins, each in its own namespace (docs/partitions.md): `a:` an
/// App Store original transaction id, `s:` a Stripe chain key, `p:` a Play purchase token, `o:` a Play
/// order id's base (no `..N`), `u:` an app user id, lower-cased (or an account token, which the rules read as one).
package enum LineageNode {
  /// The node of a chain key in its namespace.
  package static func chain(_ space: RecordBatch.Space, _ key: String) -> String {
    switch space {
    case .appStore: return "a:" + key
    case .stripe: return "s:" + key
    case .playToken: return "p:" + key
    case .playOrder: return "o:" + key
    }
  }

  /// The node of an app user id, case-folded: the readout matches an account token to an assigned
  /// user ignoring case, so ids that differ only in case share a lineage.
  package static func user(_ id: String) -> String { "u:" + id.lowercased() }

  /// The nodes an app row's store key can name: the App Store's original transaction id, a Stripe
  /// key, a Play purchase token — or, for Play, an order id, whose base names the order's chain.
  package static func storeKey(_ store: Store, _ key: String) -> [String] {
    switch store {
    case .appStore: return ["a:" + key]
    case .stripe: return ["s:" + key]
    case .play:
      guard PlayOrderId.isOrderId(key) else { return ["p:" + key] }
      return ["p:" + key, "o:" + PlayOrderId.base(key)]
    }
  }
}
