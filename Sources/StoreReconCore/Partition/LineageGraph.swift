/// Union–find over lineage nodes: every edge the keymap pass finds (a Play upgrade's linked token, a
/// sales row's order, a user's credentials and entitlements) joins two nodes into one lineage.
/// ``keymap()`` names each lineage by its smallest node (UTF-8 byte order), so the name does not
/// depend on the order the edges arrived in.
package struct LineageGraph {
  private var numbers: [String: Int32] = [:]
  private var names: [String] = []
  private var parent: [Int32] = []

  /// An empty graph.
  package init() {}

  /// Nodes met so far.
  package var nodeCount: Int { names.count }

  /// The number of `node`, added when first met.
  package mutating func number(_ node: String) -> Int32 {
    if let n = numbers[node] { return n }
    let n = Int32(truncatingIfNeeded: names.count)
    numbers[node] = n
    names.append(node)
    parent.append(n)
    return n
  }

  private mutating func root(_ n: Int32) -> Int32 {
    var r = n
    while parent[Int(r)] != r { r = parent[Int(r)] }
    var x = n
    while parent[Int(x)] != r {
      let next = parent[Int(x)]
      parent[Int(x)] = r
      x = next
    }
    return r
  }

  /// Joins the lineages of `a` and `b`.
  package mutating func join(_ a: String, _ b: String) {
    guard a != b else { return }
    let ra = root(number(a))
    let rb = root(number(b))
    if ra != rb { parent[Int(max(ra, rb))] = min(ra, rb) }
  }

  /// Joins every node of `nodes` into one lineage.
  package mutating func join(all nodes: [String]) {
    guard let first = nodes.first else { return }
    for node in nodes.dropFirst() { join(first, node) }
  }

  /// The keymap: each node of a lineage of two or more nodes, mapped to the lineage's smallest node.
  package mutating func keymap() -> LineageKeymap {
    var smallest: [Int32: String] = [:]
    var size: [Int32: Int] = [:]
    for n in names.indices {
      let r = root(Int32(n))
      size[r, default: 0] += 1
      if let s = smallest[r], !LineageKeymap.precedes(names[n], s) { continue }
      smallest[r] = names[n]
    }
    var entries: [String: String] = [:]
    for n in names.indices {
      let r = root(Int32(n))
      guard let s = smallest[r], size[r, default: 0] > 1, s != names[n] else { continue }
      entries[names[n]] = s
    }
    return LineageKeymap(entries: entries)
  }
}
