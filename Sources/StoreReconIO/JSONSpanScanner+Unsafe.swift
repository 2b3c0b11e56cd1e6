// Safety: every read of `bytes` is at an index checked below its count first (word loads only with `i + 8 <=
// n`); the values handed out are slices of `bytes`, valid only while the caller's buffer is.

/// Walks a JSON text in place, nested objects and arrays included, without building a tree: the fast
/// path of importers whose lines nest (Play subscription resources).
///
/// ``validate(_:)`` checks a whole text against the JSON grammar (with ``JSONParser``'s depth limit)
/// and gives up — returns `nil` — on anything the fast path does not handle: an escape in any string,
/// a byte outside ASCII, a member name twice in an object. Once validated, ``members(_:_:)`` and ``elements(_:_:)`` walk an object's or an
/// array's span again to hand out its values, so the caller reads only the parts it needs.
package enum JSONSpanScanner {
  /// A value, as bytes of the text.
  package enum Value {
    /// A string's bytes between the quotes (it has no escapes).
    case string(UnsafeBufferPointer<UInt8>)
    /// A number's text.
    case number(UnsafeBufferPointer<UInt8>)
    case bool(Bool)
    case null
    /// An object's or an array's whole text, brackets included.
    case object(UnsafeBufferPointer<UInt8>)
    case array(UnsafeBufferPointer<UInt8>)

    /// A text field as importers read it: a string's or a number's text; `nil` for null; `.some(nil)`
    /// (a wrong kind) otherwise. An empty string reads as absent (`nil`).
    @inline(__always)
    package var text: UnsafeBufferPointer<UInt8>?? {
      switch self {
      case .string(let s), .number(let s): return .some(s.isEmpty ? nil : s)
      case .null: return .some(nil)
      default: return nil
      }
    }
  }

  /// The value `bytes` hold (whitespace around it allowed), checked; `nil` when it is not plain JSON.
  package static func validate(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
    var i = 0
    skipSpace(bytes, &i)
    guard let value = value(bytes, &i, depth: 0) else { return nil }
    skipSpace(bytes, &i)
    return i == bytes.count ? value : nil
  }

  @inline(__always)
  static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
    while i < bytes.count {
      let b = bytes[i]
      guard b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D else { return }
      i += 1
    }
  }

  /// The string starting at the quote at `i`; `nil` on an escape, a control or a non-ASCII byte.
  @inline(__always)
  static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> UnsafeBufferPointer<UInt8>? {
    guard let base = bytes.baseAddress else { return nil }
    let n = bytes.count
    i += 1
    let start = i
    #if _endian(little)
      // Eight bytes at a time: stop at a quote, a backslash, a control byte or a byte from 0x7F up (the
      // lowest flagged byte of each term is exact).
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      while i + 8 <= n {
        let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
        let quote = w ^ (0x22 &* ones)
        let backslash = w ^ (0x5C &* ones)
        let delete = w ^ (0x7F &* ones)
        let hits =
          ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (delete &- ones) & ~delete
            | (w &- 0x20 &* ones) & ~w | w) & highs
        if hits != 0 {
          i += hits.trailingZeroBitCount >> 3
          break
        }
        i += 8
      }
    #endif
    while i < n {
      let b = base[i]
      if b == 0x22 {
        let text = UnsafeBufferPointer(start: base + start, count: i - start)
        i += 1
        return text
      }
      guard b >= 0x20 && b < 0x7F && b != 0x5C else { return nil }
      i += 1
    }
    return nil
  }

  /// The string starting at the quote at `i` in validated text (no escapes): up to the next quote.
  @inline(__always)
  static func skimString(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> UnsafeBufferPointer<UInt8>? {
    guard let base = bytes.baseAddress else { return nil }
    let n = bytes.count
    let start = i + 1
    var k = start
    #if _endian(little)
      let ones: UInt64 = 0x0101_0101_0101_0101
      while k + 8 <= n {
        let quote = UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self) ^ (0x22 &* ones)
        let hits = (quote &- ones) & ~quote & 0x8080_8080_8080_8080
        if hits != 0 {
          k += hits.trailingZeroBitCount >> 3
          i = k + 1
          return UnsafeBufferPointer(start: base + start, count: k - start)
        }
        k += 8
      }
    #endif
    while k < n {
      if base[k] == 0x22 {
        i = k + 1
        return UnsafeBufferPointer(start: base + start, count: k - start)
      }
      k += 1
    }
    return nil
  }

  /// The value at `i` in validated text, with `i` moved past it: what ``value(_:_:depth:)`` gives, but
  /// an object's or an array's end is found by matching brackets, without checking it again.
  @inline(__always)
  static func skim(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Value? {
    guard i < bytes.count else { return nil }
    switch bytes[i] {
    case 0x22:
      return skimString(bytes, &i).map(Value.string)
    case 0x7B, 0x5B:
      let open = bytes[i]
      let start = i
      var depth = 0
      while i < bytes.count {
        let b = bytes[i]
        if b == 0x22 {
          guard skimString(bytes, &i) != nil else { return nil }
          continue
        }
        if b == 0x7B || b == 0x5B {
          depth += 1
        } else if b == 0x7D || b == 0x5D {
          depth -= 1
          if depth == 0 {
            i += 1
            let text = UnsafeBufferPointer(rebasing: bytes[start..<i])
            return open == 0x7B ? .object(text) : .array(text)
          }
        }
        i += 1
      }
      return nil
    default:
      return value(bytes, &i, depth: 0)
    }
  }

  /// The value at `i` (after whitespace), checked, with `i` moved past it.
  static func value(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, depth: Int) -> Value? {
    guard i < bytes.count else { return nil }
    switch bytes[i] {
    case 0x22:
      return string(bytes, &i).map(Value.string)
    case 0x2D, 0x30...0x39:
      let start = i
      guard let end = FlatJSONScanner.numberEnd(bytes, from: i) else { return nil }
      i = end
      return .number(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    case 0x74:
      guard FlatJSONScanner.literal(bytes, at: i, "true") else { return nil }
      i += 4
      return .bool(true)
    case 0x66:
      guard FlatJSONScanner.literal(bytes, at: i, "false") else { return nil }
      i += 5
      return .bool(false)
    case 0x6E:
      guard FlatJSONScanner.literal(bytes, at: i, "null") else { return nil }
      i += 4
      return .null
    case 0x7B:
      guard depth < JSONParser.maximumDepth else { return nil }
      let start = i
      i += 1
      skipSpace(bytes, &i)
      if i < bytes.count && bytes[i] == 0x7D {
        i += 1
        return .object(UnsafeBufferPointer(rebasing: bytes[start..<i]))
      }
      return JSONMemberNames.with { names in object(bytes, &i, from: start, depth: depth, names: &names) }
    case 0x5B:
      guard depth < JSONParser.maximumDepth else { return nil }
      let start = i
      i += 1
      skipSpace(bytes, &i)
      if i < bytes.count && bytes[i] == 0x5D {
        i += 1
        return .array(UnsafeBufferPointer(rebasing: bytes[start..<i]))
      }
      while true {
        skipSpace(bytes, &i)
        guard value(bytes, &i, depth: depth + 1) != nil else { return nil }
        skipSpace(bytes, &i)
        guard i < bytes.count else { return nil }
        if bytes[i] == 0x2C {
          i += 1
          continue
        }
        guard bytes[i] == 0x5D else { return nil }
        i += 1
        return .array(UnsafeBufferPointer(rebasing: bytes[start..<i]))
      }
    default:
      return nil
    }
  }

  /// The rest of an object from its first member at `i` (`start`: its `{`); `nil` when it is not plain
  /// JSON or repeats a member name.
  static func object(
    _ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, from start: Int, depth: Int,
    names: inout JSONMemberNames
  ) -> Value? {
    while true {
      skipSpace(bytes, &i)
      guard i < bytes.count, bytes[i] == 0x22, let name = string(bytes, &i), names.insert(name) else {
        return nil
      }
      skipSpace(bytes, &i)
      guard i < bytes.count, bytes[i] == 0x3A else { return nil }
      i += 1
      skipSpace(bytes, &i)
      guard value(bytes, &i, depth: depth + 1) != nil else { return nil }
      skipSpace(bytes, &i)
      guard i < bytes.count else { return nil }
      if bytes[i] == 0x2C {
        i += 1
        continue
      }
      guard bytes[i] == 0x7D else { return nil }
      i += 1
      return .object(UnsafeBufferPointer(rebasing: bytes[start..<i]))
    }
  }

  /// Calls `visit` with each member of an already validated object span, in order.
  package static func members(
    _ object: UnsafeBufferPointer<UInt8>, _ visit: (UnsafeBufferPointer<UInt8>, Value) -> Void
  ) {
    var i = 1
    while true {
      skipSpace(object, &i)
      guard i < object.count, object[i] == 0x22, let key = skimString(object, &i) else { return }
      skipSpace(object, &i)
      i += 1  // ':'
      skipSpace(object, &i)
      guard let value = skim(object, &i) else { return }
      visit(key, value)
      skipSpace(object, &i)
      guard i < object.count, object[i] == 0x2C else { return }
      i += 1
    }
  }

  /// Calls `visit` with each element of an already validated array span, in order.
  package static func elements(_ array: UnsafeBufferPointer<UInt8>, _ visit: (Value) -> Void) {
    var i = 1
    skipSpace(array, &i)
    if i < array.count && array[i] == 0x5D { return }
    while true {
      skipSpace(array, &i)
      guard let value = skim(array, &i) else { return }
      visit(value)
      skipSpace(array, &i)
      guard i < array.count, array[i] == 0x2C else { return }
      i += 1
    }
  }
}
