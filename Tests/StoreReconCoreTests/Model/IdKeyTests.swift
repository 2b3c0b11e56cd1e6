import Testing

@testable import StoreReconCore

/// ``IdKey`` is equal exactly when `String` is, and a dictionary keyed by it finds what one keyed by
/// `String` finds.
@Suite struct IdKeyTests {
  /// Ids shaped like Stripe's, around the 32-byte edge, with NUL bytes, and the non-ASCII texts
  /// `String` calls equal to others (precomposed and decomposed é, the three scalars that decompose
  /// to ASCII).
  static var ids: [String] {
    let long = String(repeating: "x", count: 32)
    var ids = [
      "ch_3QabcDEF0123456789xyzUVW", "in_1QabcDEF0123456789xyzUVW", "re_3QabcDEF0123456789xyzUVW",
      "", "a", "a\u{0}", "ab", "ab\u{0}", long, long + "a", long + "\u{0}", String(long.dropLast()),
      "caf\u{E9}", "cafe\u{301}", "K", "\u{212A}", "ch_\u{212A}9", "ch_K9", ";", "\u{37E}", "`", "\u{1FEF}",
      long + "K", long + "\u{212A}", "\u{212A}\u{301}", "K\u{301}", "\u{1E30}",
    ]
    for n in [1, 8, 9, 16, 24, 31, 32, 33] { ids.append("pi_" + String(repeating: "Z", count: n)) }
    return ids
  }

  @Test("two keys are equal exactly when their ids are equal as String, and hash alike when they are")
  func equalExactlyWhenStringIs() {
    let ids = Self.ids
    for a in ids {
      for b in ids {
        #expect(
          (IdKey(a) == IdKey(b)) == (a == b), "\(Array(a.unicodeScalars)) vs \(Array(b.unicodeScalars))")
        if a == b { #expect(IdKey(a).hashValue == IdKey(b).hashValue) }
      }
    }
    // The cases the test is for: canonical equals that are not byte equals.
    #expect(IdKey("\u{212A}") == IdKey("K"))
    #expect(IdKey("caf\u{E9}") == IdKey("cafe\u{301}"))
    #expect(IdKey("a") != IdKey("a\u{0}"))
  }

  @Test("a dictionary keyed by IdKey finds what one keyed by String finds")
  func dictionaryFindsTheSame() {
    let ids = Self.ids
    var byString: [String: Int] = [:]
    var byKey: [IdKey: Int] = [:]
    for (n, id) in ids.enumerated() {
      byString[id] = n
      byKey[IdKey(id)] = n
    }
    #expect(byKey.count == byString.count)
    for id in ids { #expect(byKey[IdKey(id)] == byString[id]) }
  }
}
