/// A Play order id as the tie-out and the settled proceeds look orders up: packed in 12 bytes where it
/// packs (`GPA.…` with its `..N`, decimal ids, the empty text), else kept as text.
///
/// The packing is canonical, so a key made from an earnings report's text and one made from a ledger
/// record's ``PackedID`` are equal exactly when the order ids' texts are, and hashing a packed key
/// touches no heap.
package struct PlayOrderKey: Hashable, Sendable {
  /// The packed id, or ``PackedID/absent`` when ``text`` holds the id.
  let packed: PackedID
  /// The id's text when it does not pack.
  let text: String?

  /// The key of the order id `text`.
  package init(_ text: String) {
    var copy = text
    if let packed = copy.withUTF8({ PackedID.packed($0) }) {
      self.init(packed: packed, text: nil)
    } else {
      self.init(packed: .absent, text: text)
    }
  }

  /// The key of a ledger record's id (pooled text read from `pool`). A record keeps a renewal past
  /// `..30` or a decimal id of 18 or 19 digits as pooled text (``CompactID``): its text packs again
  /// here, so the key equals the report's.
  init(_ id: PackedID, pool: TextPool) {
    if id.kind == .pooled {
      self.init(pool.string(id.poolID))
    } else {
      self.init(packed: id, text: nil)
    }
  }

  init(packed: PackedID, text: String?) {
    self.packed = packed
    self.text = text
  }

  /// The order id's text.
  package var string: String {
    if let text { return text }
    return packed.string(pool: PlayOrderKey.noPool)
  }

  /// Whether `a`'s text orders before `b`'s as Swift orders `String`s.
  static func less(_ a: PlayOrderKey, _ b: PlayOrderKey) -> Bool {
    if a.text == nil && b.text == nil {
      let x = a.packed
      let y = b.packed
      if x.kind == .playOrder && y.kind == .playOrder {
        if x.value != y.value { return x.value < y.value }
        return renewalLess(x.meta & 0x3FFF_FFFF, y.meta & 0x3FFF_FFFF)
      }
      return PackedID.less(x, y, pool: noPool)
    }
    return a.string < b.string
  }

  /// Whether the suffix of renewal field `a` (0: none, else the renewal number + 1) orders before
  /// `b`'s as text: no suffix first, then `..N` by N's digits as text (`..10` before `..2`).
  static func renewalLess(_ a: UInt32, _ b: UInt32) -> Bool {
    if a == 0 || b == 0 { return a == 0 && b != 0 }
    var x = UInt64(a - 1)
    var y = UInt64(b - 1)
    let dx = digits(x)
    let dy = digits(y)
    // Compare the shorter number scaled to the longer's length; a tie puts the shorter (a prefix) first.
    for _ in dx..<max(dx, dy) { x *= 10 }
    for _ in dy..<max(dx, dy) { y *= 10 }
    return x != y ? x < y : dx < dy
  }

  static func digits(_ v: UInt64) -> Int {
    var n = 1
    var v = v
    while v >= 10 {
      v /= 10
      n += 1
    }
    return n
  }

  /// The pool a non-pooled id never reads.
  private static let noPool = TextPool()
}
