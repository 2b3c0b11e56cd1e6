import Testing

@testable import StoreReconCore

/// ``IdOrder`` sorts exactly as `String`'s `<` does, on ids shaped like Stripe's and on the ids that
/// its packed keys cannot decide alone.
@Suite struct IdOrderTests {
  /// A deterministic generator (the test's ids are the same on every run).
  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  @Test("Stripe-shaped ids, shared 32-byte prefixes, a NUL byte and non-ASCII ids sort as String does")
  func sortsAsStringDoes() {
    var g = Generator(state: 42)
    let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    var ids: [String] = []
    for prefix in ["sub_", "ch_", "in_", "evt_", "re_", "dp_", "cus_", "pi_", ""] {
      for _ in 0..<300 {
        let length = [0, 1, 7, 8, 9, 24, 28, 31, 32, 33, 40][g.next(11)]
        ids.append(prefix + String((0..<length).map { _ in alphabet[g.next(alphabet.count)] }))
      }
    }
    let long = String(repeating: "x", count: 32)
    ids += [long, long + "a", long + "b", long + "ab", long + "\u{0}", "ab", "ab\u{0}", "a", "", long + "é"]
    // Canonically equal (precomposed and decomposed é): String calls them equal.
    ids += ["caf\u{E9}", "cafe\u{301}", "café_1", "cafz", "zé", "Zé", "e\u{301}", "\u{E9}"]
    ids += ids.prefix(50)  // repeats keep their given order
    #expect(IdOrder.sorted(ids) == ids.sorted())
    let order = IdOrder.order(ids)
    #expect(order.sorted() == Array(ids.indices))
    for (a, b) in zip(order, order.dropFirst()) {
      #expect(!(ids[b] < ids[a]), "\(ids[a]) before \(ids[b])")
      if ids[a] == ids[b] { #expect(a < b) }
    }
  }

  @Test func sortsItemsByTheirId() {
    let items = [(id: "ch_3", n: 1), (id: "ch_1", n: 2), (id: "ch_2", n: 3), (id: "ch_1", n: 4)]
    #expect(IdOrder.sorted(items) { $0.id }.map(\.n) == [2, 4, 3, 1])
    #expect(IdOrder.sorted([String]()).isEmpty)
  }
}
