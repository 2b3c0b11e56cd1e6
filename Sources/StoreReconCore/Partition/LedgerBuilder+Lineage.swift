extension LedgerBuilder {
  /// Joins, in `graph`, what the records read so far say belongs to one lineage: each Play chain and
  /// the first order ids its rows and resource name (so sales rows keyed by order land with their
  /// token's chain), a Play resource and the purchase token it upgraded from (`linkedPurchaseToken`),
  /// and each chain and the account tokens it carries (the rules read a token as the person who paid).
  /// Call before ``build(asOf:catalog:)``.
  package func joinLineages(into graph: inout LineageGraph) {
    flushPendingRecords()
    let pool = storage.pool
    var nodes: [String] = []
    nodes.reserveCapacity(chains.count)
    for chain in chains {
      nodes.append(LineageNode.chain(chain.space, chain.key.string(pool: pool)))
    }
    for (c, base) in bases {
      graph.join(nodes[Int(c)], LineageNode.chain(.playOrder, base.string(pool: pool)))
    }
    for (c, chain) in chains.enumerated() {
      var tokens: [UInt32] = []
      if chain.firstToken != 0 { tokens.append(chain.firstToken) }
      if chain.status >= 0 {
        let status = storage.statuses[Int(chain.status)]
        let linked = status.linked.string(pool: pool)
        if !linked.isEmpty { graph.join(nodes[c], LineageNode.chain(.playToken, linked)) }
        if status.token != 0 { tokens.append(status.token) }
      }
      for token in tokens {
        graph.join(nodes[c], LineageNode.user(storage.tokens.string(token - 1)))
      }
    }
  }
}
