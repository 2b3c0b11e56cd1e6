/// A chain key, transaction id or order id in 12 bytes, so that millions of them need no heap storage.
///
/// A decimal id of up to 19 digits (Apple's `2000000000000019`) is kept as its value and length; a
/// Play order id (`GPA.1234-5678-9012-34567`, optionally `..N`) as its 17 digits and renewal number;
/// any other text as its number in a ``TextPool``. The encoding is canonical: two texts are equal
/// exactly when their packed ids are equal (pooled texts: within one pool).
package struct PackedID: Hashable, Sendable, BitwiseCopyable {
  /// The decimal value, the order id's 17 digits, or the pool number.
  package var value: UInt64
  /// The kind in the top 2 bits; below them the decimal length or the renewal number + 1 (0: none).
  package var meta: UInt32

  /// What a packed id holds.
  package enum Kind: UInt32 {
    /// The empty text (value 0), or no id at all (value 1, ``absent``).
    case empty = 0
    /// Up to 19 ASCII digits.
    case decimal = 1
    /// `GPA.dddd-dddd-dddd-ddddd` with an optional canonical `..N` (N < 10⁹).
    case playOrder = 2
    /// Any other text, by its number in a ``TextPool``.
    case pooled = 3
  }

  /// The empty text.
  static let empty = PackedID(value: 0, meta: 0)
  /// No id (an optional that is `nil`).
  package static let absent = PackedID(value: 1, meta: 0)

  @inline(__always)
  package var kind: Kind {
    switch meta >> 30 {
    case 1: return .decimal
    case 2: return .playOrder
    case 3: return .pooled
    default: return .empty
    }
  }

  /// Whether this is ``absent``.
  @inline(__always) var isAbsent: Bool { meta == 0 && value == 1 }

  /// The id of text number `id` of a pool.
  @inline(__always)
  package static func pooled(_ id: UInt32) -> PackedID { PackedID(value: UInt64(id), meta: 3 << 30) }

  /// The pool number of a pooled id.
  @inline(__always) package var poolID: UInt32 { UInt32(truncatingIfNeeded: value) }

  /// The Play renewal number (`..N`), or `nil` for a first order and for other kinds.
  @inline(__always)
  var playRenewal: Int? {
    guard kind == .playOrder else { return nil }
    let r = meta & 0x3FFF_FFFF
    return r == 0 ? nil : Int(r - 1)
  }

  /// A Play order id without its renewal suffix (the first order); other ids unchanged.
  @inline(__always)
  package var playBase: PackedID { kind == .playOrder ? PackedID(value: value, meta: 2 << 30) : self }

  /// The packed form of `text`, numbering other text in `pool`.
  package static func intern(_ text: String, in pool: TextPool) -> PackedID {
    var text = text
    return text.withUTF8 { intern($0, in: pool) }
  }

  /// The packed form of `text` if `pool` (or the packing) knows it; `nil` when the pool has never seen it.
  static func find(_ text: String, in pool: TextPool) -> PackedID? {
    var text = text
    return text.withUTF8 { bytes in
      if let packed = packed(bytes) { return packed }
      return pool.find(bytes).map(PackedID.pooled)
    }
  }

  /// The longest text a non-pooled id writes (`GPA.` + 20 + `..` + 9 digits).
  package static let maximumPackedLength = 35

  /// The id's text (`""` for ``empty`` and ``absent``).
  func string(pool: TextPool) -> String {
    if kind == .pooled { return pool.string(poolID) }
    return withBytes(pool: pool) { String(decoding: $0, as: UTF8.self) }
  }

  /// The id's text, `nil` for ``absent``.
  func optionalString(pool: TextPool) -> String? { isAbsent ? nil : string(pool: pool) }

  /// Whether the id's text orders before `other`'s as Swift orders `String`s.
  static func less(_ a: PackedID, _ b: PackedID, pool: TextPool) -> Bool {
    compare(a, b, pool: pool) < 0
  }

  /// -1, 0 or 1 as the ids' texts order as Swift orders `String`s (byte order for ASCII).
  static func compare(_ a: PackedID, _ b: PackedID, pool: TextPool) -> Int {
    if a == b { return 0 }
    let ka = a.kind
    let kb = b.kind
    if ka == .decimal && kb == .decimal && a.meta == b.meta { return a.value < b.value ? -1 : 1 }
    if ka == .playOrder && kb == .playOrder && a.value != b.value { return a.value < b.value ? -1 : 1 }
    if (ka == .pooled && !pool.isASCII(a.poolID)) || (kb == .pooled && !pool.isASCII(b.poolID)) {
      let x = a.string(pool: pool)
      let y = b.string(pool: pool)
      return x < y ? -1 : (x == y ? 0 : 1)
    }
    return a.withBytes(pool: pool) { x in
      b.withBytes(pool: pool) { y in ByteOrder.compare(x, y) }
    }
  }
}

/// A ``PackedID`` in 8 bytes, as records keep their transaction ids: the kind in the top 2 bits; a
/// decimal id of up to 17 digits as its length (5 bits) and value; a Play order id as its renewal + 1
/// (5 bits: first orders and renewals up to `..30`) and 17 digits; any other text by its pool number.
///
/// Canonical like ``PackedID``: an id too long for 8 bytes is kept as pooled text, so two equal texts
/// always have equal compact ids (``init(_:pooling:)``).
package struct CompactID: Hashable, Sendable, BitwiseCopyable {
  var bits: UInt64

  /// The empty text.
  static let empty = CompactID(bits: 0)

  @inline(__always) init(bits: UInt64) { self.bits = bits }

  /// The compact form of `id`, pooling in `pool` the text of an id too long for 8 bytes (`id` is a
  /// text, never ``PackedID/absent``).
  @inline(__always)
  package init(_ id: PackedID, pooling pool: TextPool) {
    assert(!id.isAbsent, "a record's transaction id is a text")
    if let fits = CompactID(fitting: id) {
      self = fits
    } else {
      self = CompactID(pooled: id.withBytes(pool: pool) { pool.intern($0) })
    }
  }

  /// The compact form of `id` if it fits 8 bytes as it is (pooled texts always do).
  @inline(__always)
  init?(fitting id: PackedID) {
    switch id.kind {
    case .empty:
      guard !id.isAbsent else { return nil }
      bits = 0
    case .decimal:
      let length = UInt64(id.meta & 0x3FFF_FFFF)
      guard length <= 17 else { return nil }
      bits = 1 << 62 | length << 57 | id.value
    case .playOrder:
      let renewal = UInt64(id.meta & 0x3FFF_FFFF)
      guard renewal <= 31 else { return nil }
      bits = 2 << 62 | renewal << 57 | id.value
    case .pooled:
      bits = 3 << 62 | UInt64(id.poolID)
    }
  }

  /// A pooled text by its pool number.
  @inline(__always) init(pooled number: UInt32) { bits = 3 << 62 | UInt64(number) }

  /// The compact form of `id` where some record may hold it: `nil` when no compact id can equal it
  /// (its text is too long for 8 bytes and not in `pool`).
  static func known(_ id: PackedID, in pool: TextPool) -> CompactID? {
    if let fits = CompactID(fitting: id) { return fits }
    return id.withBytes(pool: pool) { pool.find($0) }.map { CompactID(pooled: $0) }
  }

  /// Whether this is pooled text (its number is ``poolNumber``).
  @inline(__always) var isPooled: Bool { bits >> 62 == 3 }
  @inline(__always) var poolNumber: UInt32 { UInt32(truncatingIfNeeded: bits) }

  /// The same id as a ``PackedID`` for its text (a pooled text stays pooled by number: compare
  /// ``CompactID``s, not these, for equality).
  @inline(__always)
  var id: PackedID {
    switch bits >> 62 {
    case 1:
      return PackedID(
        value: bits & (1 << 57 - 1), meta: 1 << 30 | UInt32(truncatingIfNeeded: (bits >> 57) & 31))
    case 2:
      return PackedID(
        value: bits & (1 << 57 - 1), meta: 2 << 30 | UInt32(truncatingIfNeeded: (bits >> 57) & 31))
    case 3: return .pooled(poolNumber)
    default: return .empty
    }
  }
}
