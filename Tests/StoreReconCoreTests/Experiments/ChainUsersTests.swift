import Testing

@testable import StoreReconCore

/// Lineages grouped from the chains' roots, links with cycles included, as the first version grouped them.
@Suite struct ChainUsersTests {
  /// Each chain's root: the end of its walk up `parent`, stopping where the walk would repeat a chain.
  static func roots(_ parent: [Int32]) -> [Int32] {
    parent.indices.map { i in
      var current = Int32(i)
      var seen: Set<Int32> = [current]
      while parent[Int(current)] >= 0, seen.insert(parent[Int(current)]).inserted {
        current = parent[Int(current)]
      }
      return current
    }
  }

  /// The first version's grouping: per chain that is a root of some chain, that chain, then the others
  /// whose root it is, sorted.
  static func reference(_ root: [Int32], _ less: (Int32, Int32) -> Bool) -> [[Int32]] {
    var sizes = [Int](repeating: 0, count: root.count)
    for r in root { sizes[Int(r)] += 1 }
    var others: [Int: [Int32]] = [:]
    for i in root.indices where root[i] != Int32(i) { others[Int(root[i]), default: []].append(Int32(i)) }
    return root.indices.filter { sizes[$0] > 0 }.map { r in [Int32(r)] + (others[r] ?? []).sorted(by: less) }
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
  func groupsLikeTheFirstVersion(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    let count = 80
    // Links to random chains (never a chain to itself), so cycles of two or more chains happen.
    let parent: [Int32] = (0..<count).map { i in
      guard generator.below(10) < 4 else { return -1 }
      let j = generator.below(count - 1)
      return Int32(j >= i ? j + 1 : j)
    }
    let root = Self.roots(parent)
    let less: (Int32, Int32) -> Bool = { a, b in (a * 7 % 13, a) < (b * 7 % 13, b) }
    let (starts, members) = ChainUsers.group(roots: root, by: less)
    let lineages = (0..<(starts.count - 1)).map { Array(members[Int(starts[$0])..<Int(starts[$0 + 1])]) }
    #expect(lineages == Self.reference(root, less))
    #expect(root.indices.contains { root[$0] != Int32($0) })
  }

  @Test func aCycleOfTwoGivesTwoLineagesThatShareTheirChains() {
    // 0 → 1 → 0: chain 0's walk ends at 1, chain 1's at 0; 2 → 0 ends at 1.
    let root = Self.roots([1, 0, 0, -1])
    #expect(root == [1, 0, 1, 3])
    let (starts, members) = ChainUsers.group(roots: root, by: <)
    #expect(starts == [0, 2, 5, 6])
    #expect(members == [0, 1, 1, 0, 2, 3])
  }
}
