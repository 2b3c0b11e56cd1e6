// Safety: `base` is `bytes.baseAddress` and every read is at an index checked below `n = bytes.count` first
// (word loads only with `i + 8 <= n`; a skipped escape that runs past `n` ends the scan as not plain); spans
// handed to the visitor lie inside `bytes` and are valid only while the caller's buffer is.

public import StoreReconPlatform

/// Walks the top-level members of one JSON object in place, without building a tree.
///
/// It is the fast path of the JSON Lines importers: it hands each member's key and value to a visitor
/// as byte spans and returns `false` the moment anything is unusual — an escape in a key, invalid
/// JSON, trailing bytes, a member name twice — so the caller can fall back to the full ``JSONParser``,
/// which produces the precise rejection. Nested objects and arrays are validated with ``JSONParser`` (they are rare).
public enum FlatJSONScanner {
  /// One member's value, as bytes of the line.
  public enum Value {
    /// A string without escapes: the bytes between the quotes.
    case string(UnsafeBufferPointer<UInt8>)
    /// A string with escapes: the bytes between the quotes, still escaped.
    case escapedString(UnsafeBufferPointer<UInt8>)
    /// A number's text.
    case number(UnsafeBufferPointer<UInt8>)
    case bool(Bool)
    case null
    /// A nested object or array (validated).
    case composite(UnsafeBufferPointer<UInt8>)
  }

  /// Calls `visit` for every member of the object in `bytes`, in order; `false` when the line is not
  /// a plain, valid JSON object (nothing is promised about which members were visited then).
  @inlinable
  public static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, _ visit: (UnsafeBufferPointer<UInt8>, Value) -> Void
  ) -> Bool {
    JSONMemberNames.with { names in scan(bytes, names: &names, visit) }
  }

  /// ``scan(_:_:)`` with the object's member names kept in `names` (a repeated name: `false`).
  @inlinable
  static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, names: inout JSONMemberNames,
    _ visit: (UnsafeBufferPointer<UInt8>, Value) -> Void
  ) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    let n = bytes.count
    @inline(__always) func span(_ from: Int, _ to: Int) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(start: base + from, count: to - from)
    }
    var i = skipSpace(base, 0, n)
    guard i < n, base[i] == 0x7B else { return false }
    i = skipSpace(base, i + 1, n)
    if i < n && base[i] == 0x7D {
      return skipSpace(base, i + 1, n) == n
    }
    while true {
      i = skipSpace(base, i, n)
      guard i < n, base[i] == 0x22 else { return false }
      i += 1
      let keyStart = i
      i = stringStop(base, i, n)
      guard i < n, base[i] == 0x22 else { return false }  // an escape or a control byte in a key
      let key = span(keyStart, i)
      guard names.insert(key) else { return false }  // a repeated name: the parser rejects the line
      i = skipSpace(base, i + 1, n)
      guard i < n, base[i] == 0x3A else { return false }
      i = skipSpace(base, i + 1, n)
      guard i < n else { return false }
      let value: Value
      switch base[i] {
      case 0x22:
        i += 1
        let start = i
        var escaped = false
        while true {
          i = stringStop(base, i, n)
          guard i < n else { return false }
          let b = base[i]
          if b == 0x22 { break }
          guard b >= 0x20 else { return false }
          escaped = true  // a backslash: skip the escaped byte
          i += 2
        }
        let text = span(start, i)
        i += 1
        if escaped {
          // Let the real parser check the escapes.
          guard JSONParser.isValid(span(start - 1, i)) else { return false }
          value = .escapedString(text)
        } else {
          value = .string(text)
        }
      case 0x2D, 0x30...0x39:
        let start = i
        guard let end = numberEnd(bytes, from: i) else { return false }
        i = end
        value = .number(span(start, end))
      case 0x74:
        guard literal(bytes, at: i, "true") else { return false }
        i += 4
        value = .bool(true)
      case 0x66:
        guard literal(bytes, at: i, "false") else { return false }
        i += 5
        value = .bool(false)
      case 0x6E:
        guard literal(bytes, at: i, "null") else { return false }
        i += 4
        value = .null
      case 0x7B, 0x5B:
        let start = i
        guard let end = compositeEnd(bytes, from: i) else { return false }
        i = end
        let text = span(start, end)
        guard JSONParser.isValid(text) else { return false }
        value = .composite(text)
      default:
        return false
      }
      visit(key, value)
      i = skipSpace(base, i, n)
      guard i < n else { return false }
      if base[i] == 0x2C {
        i += 1
        continue
      }
      guard base[i] == 0x7D else { return false }
      return skipSpace(base, i + 1, n) == n
    }
  }

  /// The index of the first byte at or after `i` that is not JSON whitespace, or `n`.
  @inline(__always)
  @inlinable static func skipSpace(_ base: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Int {
    var i = i
    while i < n {
      let b = base[i]
      guard b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D else { return i }
      i += 1
    }
    return i
  }

  /// The index of the first byte at or after `i` that ends a plain run of string bytes — a quote, a
  /// backslash or a control byte (below 0x20) — or `n` (at least `i`). Eight bytes at a time.
  @inline(__always)
  @inlinable static func stringStop(_ base: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Int {
    var i = i
    #if _endian(little)
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      while i + 8 <= n {
        let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
        let quote = w ^ (0x22 &* ones)
        let backslash = w ^ (0x5C &* ones)
        // The lowest flagged byte of each term is exact (a borrow only flags bytes above a hit).
        let hits =
          ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (w &- 0x20 &* ones) & ~w) & highs
        if hits != 0 { return i + hits.trailingZeroBitCount >> 3 }
        i += 8
      }
    #endif
    while i < n {
      let b = base[i]
      if b == 0x22 || b == 0x5C || b < 0x20 { return i }
      i += 1
    }
    return max(i, n)
  }

  /// The end of a JSON number starting at `start` (RFC 8259 grammar), or `nil`.
  @inlinable static func numberEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    let n = bytes.count
    var i = start
    @inline(__always) func digits() -> Int {
      let from = i
      while i < n && bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
      return i - from
    }
    if bytes[i] == 0x2D { i += 1 }
    guard i < n else { return nil }
    if bytes[i] == 0x30 {
      i += 1
    } else {
      guard digits() > 0 else { return nil }
    }
    if i < n && bytes[i] == 0x2E {
      i += 1
      guard digits() > 0 else { return nil }
    }
    if i < n && (bytes[i] == 0x65 || bytes[i] == 0x45) {
      i += 1
      if i < n && (bytes[i] == 0x2B || bytes[i] == 0x2D) { i += 1 }
      guard digits() > 0 else { return nil }
    }
    return i
  }

  @usableFromInline static func literal(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, _ word: StaticString)
    -> Bool
  {
    let count = word.utf8CodeUnitCount
    guard i + count <= bytes.count else { return false }
    let w = word.utf8Start
    for k in 0..<count where bytes[i + k] != w[k] { return false }
    return true
  }

  /// The index after the object or array starting at `start`, matching brackets outside strings.
  @usableFromInline static func compositeEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var depth = 0
    var i = start
    let n = bytes.count
    while i < n {
      switch bytes[i] {
      case 0x22:
        i += 1
        while i < n && bytes[i] != 0x22 { i += bytes[i] == 0x5C ? 2 : 1 }
      case 0x7B, 0x5B:
        depth += 1
        guard depth <= JSONParser.maximumDepth else { return nil }
      case 0x7D, 0x5D:
        depth -= 1
        if depth == 0 { return i + 1 }
      default:
        break
      }
      i += 1
    }
    return nil
  }

  /// Whether `bytes` spell exactly `word`.
  @inline(__always)
  @inlinable
  public static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard bytes.count == count, let base = bytes.baseAddress else { return count == 0 }
    return Memory.memcmp(base, word.utf8Start, count) == 0
  }

  /// A plain decimal integer (`-?[0-9]+`, at most 18 digits), or `nil` for anything else.
  @inline(__always)
  @inlinable
  public static func plainInt64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    var i = 0
    var negative = false
    if bytes.count > 0 && bytes[0] == 0x2D {
      negative = true
      i = 1
    }
    let digits = bytes.count - i
    guard digits > 0 && digits <= 18 else { return nil }
    var value: Int64 = 0
    while i < bytes.count {
      let d = bytes[i] &- 0x30
      guard d <= 9 else { return nil }
      value = value &* 10 &+ Int64(d)
      i += 1
    }
    return negative ? -value : value
  }
}
