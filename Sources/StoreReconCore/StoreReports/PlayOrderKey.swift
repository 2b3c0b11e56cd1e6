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

  /// The key of the order id `bytes` (UTF-8).
  package init(bytes: UnsafeBufferPointer<UInt8>) {
    if let packed = PackedID.packed(bytes) {
      self.init(packed: packed, text: nil)
    } else {
      self.init(packed: .absent, text: String(decoding: bytes, as: UTF8.self))
    }
  }

  /// The key of a ledger record's id (pooled text read from `pool`).
  init(_ id: PackedID, pool: TextPool) {
    if id.kind == .pooled {
      self.init(packed: .absent, text: pool.string(id.poolID))
    } else {
      self.init(packed: id, text: nil)
    }
  }

  private init(packed: PackedID, text: String?) {
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
    if a.text == nil && b.text == nil { return PackedID.less(a.packed, b.packed, pool: noPool) }
    return a.string < b.string
  }

  /// The pool a non-pooled id never reads.
  private static let noPool = TextPool()
}
