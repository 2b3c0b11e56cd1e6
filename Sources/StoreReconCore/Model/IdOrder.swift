/// Sorting by a text id (a Stripe id, an event id) in `String`'s own order, without comparing `String`s
/// at every step: an ASCII id's first 32 bytes, packed into four big-endian words, decide almost every
/// comparison; ids equal in those bytes compare by their remaining bytes, and an id with a byte over
/// 0x7F compares as `String` does (Unicode's canonical order, which for ASCII is the bytes' order).
package enum IdOrder {
  /// What decides most comparisons of one id.
  struct Key {
    var w0: UInt64 = 0
    var w1: UInt64 = 0
    var w2: UInt64 = 0
    var w3: UInt64 = 0
    var count = 0
    var ascii = true

    init(_ id: String) {
      var id = id
      id.withUTF8 { bytes in
        count = bytes.count
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        for (i, b) in bytes.enumerated() {
          if b > 0x7F { ascii = false }
          guard i < 32 else { continue }
          let shift = UInt64(56 - 8 * (i % 8))
          switch i / 8 {
          case 0: words.0 |= UInt64(b) << shift
          case 1: words.1 |= UInt64(b) << shift
          case 2: words.2 |= UInt64(b) << shift
          default: words.3 |= UInt64(b) << shift
          }
        }
        (w0, w1, w2, w3) = words
      }
    }
  }

  /// How the id of key `a` (`x()`) compares with that of `b` (`y()`): below zero when it sorts first,
  /// as `x < y`; zero when equal. The ids are asked for only when the keys do not decide.
  static func compare(_ a: Key, _ b: Key, _ x: () -> String, _ y: () -> String) -> Int {
    guard a.ascii && b.ascii else {
      let (s, t) = (x(), y())
      return s < t ? -1 : t < s ? 1 : 0
    }
    if a.w0 != b.w0 { return a.w0 < b.w0 ? -1 : 1 }
    if a.w1 != b.w1 { return a.w1 < b.w1 ? -1 : 1 }
    if a.w2 != b.w2 { return a.w2 < b.w2 ? -1 : 1 }
    if a.w3 != b.w3 { return a.w3 < b.w3 ? -1 : 1 }
    // The same first 32 bytes (a shorter id is padded with zeros, so it may equal a longer one here).
    if a.count <= 32 && b.count <= 32 { return a.count - b.count }
    let (s, t) = (x(), y())
    if s.utf8.lexicographicallyPrecedes(t.utf8) { return -1 }
    return t.utf8.lexicographicallyPrecedes(s.utf8) ? 1 : 0
  }

  /// The positions of `ids` in ascending order of the ids (equal ids in their given order).
  package static func order(_ ids: [String]) -> [Int] {
    let keys = ids.map(Key.init)
    var positions = Array(ids.indices)
    positions.sort { i, j in
      let c = compare(keys[i], keys[j], { ids[i] }, { ids[j] })
      return c != 0 ? c < 0 : i < j
    }
    return positions
  }

  /// `items` in ascending order of `id(item)`.
  package static func sorted<T>(_ items: [T], by id: (T) -> String) -> [T] {
    order(items.map(id)).map { items[$0] }
  }

  /// `ids` in ascending order.
  package static func sorted(_ ids: [String]) -> [String] { order(ids).map { ids[$0] } }
}
