// Safety: `bytes(_:seed:)` reads `[0, count)` of the buffer it is given, eight bytes at a time only while
// `i + 8 <= count`; a String's bytes are read inside its own `withUTF8`.

import StoreReconIO

/// A 64-bit fingerprint of a JSON value, the same for the tree (``JSONValue``) and the lean path
/// (``StripeTape``): which of two states of one Stripe object is an identical repeat (a duplicate) and
/// which a different state, without keeping either (docs/inputs.md#stripe-objects).
///
/// Strings hash their UTF-8 bytes (escapes resolved), numbers their JSON text, arrays their elements
/// in order, objects the sum of their members' hashes (member order does not matter, as for
/// ``JSONValue``'s equality). Two values differ where their fingerprints do; equal fingerprints of
/// different values (a chance of about 2⁻⁶⁴ per pair compared) would count a state as a duplicate.
enum StripeFingerprint {
  static let stringSeed: UInt64 = 0x9E37_79B9_7F4A_7C15
  static let numberSeed: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  static let trueHash: UInt64 = 0x1656_67B1_9E37_79F9
  static let falseHash: UInt64 = 0x27D4_EB2F_1656_67C5
  static let nullHash: UInt64 = 0x85EB_CA77_C2B2_AE63
  static let objectSeed: UInt64 = 0xFF51_AFD7_ED55_8CCD
  static let arraySeed: UInt64 = 0xC4CE_B9FE_1A85_EC53
  static let multiplier: UInt64 = 0xA076_1D64_78BD_642F

  /// The two halves of the full product, folded.
  @inline(__always)
  static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let product = a.multipliedFullWidth(by: b)
    return product.high ^ product.low
  }

  /// The hash of `count` bytes at `base`.
  @inline(__always)
  static func bytes(_ base: UnsafePointer<UInt8>, _ count: Int, seed: UInt64) -> UInt64 {
    var h = mix(seed ^ UInt64(count), multiplier)
    var i = 0
    let raw = UnsafeRawPointer(base)
    while i + 8 <= count {
      h = mix(h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self), multiplier)
      i += 8
    }
    if i < count {
      var word: UInt64 = 0
      var shift: UInt64 = 0
      while i < count {
        word |= UInt64(base[i]) << shift
        shift += 8
        i += 1
      }
      h = mix(h ^ word ^ 0xE703_7ED1_A0B4_28DB, multiplier)
    }
    return mix(h, 0x8EBC_6AF0_9C88_C6E3)
  }

  /// The hash of a buffer's bytes.
  @inline(__always)
  static func bytes(_ buffer: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
    guard let base = buffer.baseAddress else { return mix(seed, multiplier) }
    return bytes(base, buffer.count, seed: seed)
  }

  /// A member's share of its object's fingerprint: its name's hash and its value's.
  @inline(__always)
  static func member(name: UInt64, value: UInt64) -> UInt64 {
    mix(name ^ 0x589_65CC_75A0_A8DB, value ^ 0x3C6E_F372_FE94_F82B)
  }

  /// An object's fingerprint from the sum of its members' shares and their count.
  @inline(__always)
  static func object(sum: UInt64, count: Int) -> UInt64 { mix(sum ^ objectSeed, multiplier ^ UInt64(count)) }

  /// The next state of an array's fingerprint after `element`.
  @inline(__always)
  static func array(_ h: UInt64, element: UInt64) -> UInt64 { mix(h ^ element, multiplier) }

  /// A string's hash.
  static func string(_ text: String) -> UInt64 {
    var text = text
    return text.withUTF8 { bytes($0, seed: stringSeed) }
  }

  /// The fingerprint of a parsed value.
  static func of(_ value: JSONValue) -> UInt64 {
    switch value {
    case .string(let text): return string(text)
    case .number(let text):
      var text = text
      return text.withUTF8 { bytes($0, seed: numberSeed) }
    case .bool(let flag): return flag ? trueHash : falseHash
    case .null: return nullHash
    case .array(let elements):
      var h = arraySeed
      for element in elements { h = array(h, element: of(element)) }
      return mix(h, UInt64(elements.count))
    case .object(let members):
      var sum: UInt64 = 0
      for (name, member) in members { sum &+= self.member(name: string(name), value: of(member)) }
      return object(sum: sum, count: members.count)
    }
  }
}
