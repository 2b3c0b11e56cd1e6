extension PackedEntitlements {
  /// Joins each row's user with the chain its store key names.
  package func joinLineages(into graph: inout LineageGraph) {
    for r in rows {
      guard let store = r.source.store, let key = r.key.optionalString(pool: pool) else { continue }
      graph.join(all: [LineageNode.user(r.userId)] + LineageNode.storeKey(store, key))
    }
  }

  /// The rows whose user `keep` accepts, in order, in the same pools.
  package func filtered(users keep: (String) -> Bool) -> PackedEntitlements {
    var copy = PackedEntitlements(pool: pool, products: products)
    copy.rows = rows.filter { keep($0.userId) }
    return copy
  }
}

extension PackedCredentials {
  /// Joins each row's user with the chains its store key, linked store key and order id name.
  package func joinLineages(into graph: inout LineageGraph) {
    for i in rows.indices {
      let r = rows[i]
      var nodes = [LineageNode.user(r.userId)] + LineageNode.storeKey(r.store, r.key.string(pool: pool))
      if let linked = linked(i).optionalString(pool: pool) { nodes += LineageNode.storeKey(r.store, linked) }
      if let order = order(i).optionalString(pool: pool) { nodes += LineageNode.storeKey(r.store, order) }
      graph.join(all: nodes)
    }
  }

  /// The rows whose user `keep` accepts, in order, in the same pool.
  package func filtered(users keep: (String) -> Bool) -> PackedCredentials {
    var copy = PackedCredentials(pool: pool)
    for i in rows.indices where keep(rows[i].userId) {
      let r = rows[i]
      copy.append(
        userId: r.userId, key: r.key, store: r.store, claimedAt: r.claimedAt, linked: linked(i),
        order: order(i))
    }
    return copy
  }
}
