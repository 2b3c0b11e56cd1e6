import Testing

@testable import StoreReconCore

@Suite struct LineageHashTests {
  @Test func fnv1a64MatchesThePublishedVectors() {
    // The FNV-1a 64 test vectors (offset basis for no bytes, then "a" and "foobar").
    #expect(LineageHash.fnv1a64("".utf8) == 0xcbf2_9ce4_8422_2325)
    #expect(LineageHash.fnv1a64("a".utf8) == 0xaf63_dc4c_8601_ec8c)
    #expect(LineageHash.fnv1a64("foobar".utf8) == 0x8594_4171_f739_67e8)
  }

  @Test func partitionsAreTheHashModuloTheCount() {
    #expect(LineageHash.partition(of: "a", count: 7) == Int(0xaf63_dc4c_8601_ec8c as UInt64 % 7))
    var seen = Set<Int>()
    for i in 0..<1000 { seen.insert(LineageHash.partition(of: "a:\(2_000_000_000_000_000 + i)", count: 16)) }
    #expect(seen == Set(0..<16))
  }

  @Test func specParsesOnlyIndexOverCount() {
    #expect(PartitionSpec(parsing: "3/8") == PartitionSpec(index: 3, count: 8))
    #expect(PartitionSpec(parsing: "0/1")?.owns(lineage: "anything") == true)
    for bad in ["8/8", "-1/8", "1/0", "1", "1/2/3", "a/2", " 1/2", "1/5000", "", "/", "1/"] {
      #expect(PartitionSpec(parsing: bad) == nil, "\(bad)")
    }
  }
}

@Suite struct LineageGraphTests {
  @Test func lineagesAreNamedByTheirSmallestNodeWhateverTheEdgeOrder() {
    let edges = [
      ("p:new", "p:old"), ("o:GPA.1", "p:new"), ("u:alice", "p:old"), ("u:bob", "a:200"), ("a:100", "u:bob"),
    ]
    var forward = LineageGraph()
    for (a, b) in edges { forward.join(a, b) }
    var backward = LineageGraph()
    for (a, b) in edges.reversed() { backward.join(b, a) }
    let k1 = forward.keymap()
    let k2 = backward.keymap()
    #expect(k1 == k2)
    #expect(k1.lineage(of: "p:new") == "o:GPA.1")
    #expect(k1.lineage(of: "u:alice") == "o:GPA.1")
    #expect(k1.lineage(of: "o:GPA.1") == "o:GPA.1")
    #expect(k1.lineage(of: "u:bob") == "a:100")
    #expect(k1.lineage(of: "a:200") == "a:100")
    // A node no edge names is its own lineage and is not stored.
    #expect(k1.lineage(of: "a:999") == "a:999")
    #expect(k1.entries.count == 5)
  }

  @Test func keymapFilesRoundTripWithEscapes() throws {
    var graph = LineageGraph()
    graph.join("u:tab\there", "a:1")
    graph.join("u:back\\slash\nline", "a:1")
    graph.join("u:é", "a:1")
    let keymap = graph.keymap()
    let bytes = keymap.rendered()
    #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("storerecon-keymap 1\n"))
    #expect(try LineageKeymap(parsing: bytes) == keymap)
    #expect(throws: PartialText.FormatError.self) { try LineageKeymap(parsing: Array("nope\n".utf8)) }
    #expect(throws: PartialText.FormatError.self) {
      try LineageKeymap(parsing: Array("storerecon-keymap 1\na\\qb\tc\n".utf8))
    }
  }

  @Test func playOrderIdsNameTheirBase() {
    #expect(
      LineageNode.storeKey(.play, "GPA.3372-1234-5678-90123..4") == [
        "p:GPA.3372-1234-5678-90123..4", "o:GPA.3372-1234-5678-90123",
      ])
    #expect(LineageNode.storeKey(.play, "token-abc") == ["p:token-abc"])
    #expect(LineageNode.storeKey(.appStore, "2000000001") == ["a:2000000001"])
  }
}
