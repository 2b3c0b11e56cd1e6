/// Stripe's JSON as bytes: each object is written to `objects.jsonl` exactly as Stripe returned it, so no
/// number or key order passes through a decoder. Stripe indents its answers; a JSON Lines line may not
/// break, so the whitespace between tokens (never inside a string) is taken out and nothing else.
/// The answers are parsed with `JSONSerialization` as well, for their meaning; this only finds where each
/// value's text starts and ends.
enum StripeJSON {
  /// `bytes` without the whitespace between tokens (space, tab, CR, LF outside strings).
  static func compact(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var inString = false
    var escaped = false
    for byte in bytes {
      if inString {
        out.append(byte)
        if escaped {
          escaped = false
        } else if byte == 0x5C {
          escaped = true
        } else if byte == 0x22 {
          inString = false
        }
        continue
      }
      switch byte {
      case 0x20, 0x09, 0x0A, 0x0D: continue
      case 0x22: inString = true
      default: break
      }
      out.append(byte)
    }
    return out
  }

  /// The byte ranges of the elements of the array that is the top-level object's member `key` (Stripe's
  /// list object's `data`), in order; `nil` when the text is not an object with such an array.
  static func elements(of key: String, in bytes: [UInt8]) -> [Range<Int>]? {
    var scanner = Scanner(bytes: bytes)
    scanner.skipSpace()
    guard scanner.take(0x7B) else { return nil }
    let wanted = Array(key.utf8)
    while true {
      scanner.skipSpace()
      if scanner.take(0x7D) { return nil }
      guard let name = scanner.string() else { return nil }
      scanner.skipSpace()
      guard scanner.take(0x3A) else { return nil }
      scanner.skipSpace()
      if bytes[name] == wanted[...], scanner.peek == 0x5B { return scanner.arrayElements() }
      guard scanner.skipValue() else { return nil }
      scanner.skipSpace()
      if scanner.take(0x2C) { continue }
      return nil
    }
  }

  /// A cursor over JSON text that skips values without decoding them.
  private struct Scanner {
    let bytes: [UInt8]
    var at = 0

    var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

    mutating func skipSpace() {
      while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { at += 1 }
    }

    /// Takes `byte` when it is next.
    mutating func take(_ byte: UInt8) -> Bool {
      guard peek == byte else { return false }
      at += 1
      return true
    }

    /// A string's contents (between the quotes, escapes as written); `nil` when none is next.
    mutating func string() -> Range<Int>? {
      guard take(0x22) else { return nil }
      let start = at
      while at < bytes.count {
        if bytes[at] == 0x5C {
          at += 2
        } else if bytes[at] == 0x22 {
          at += 1
          return start..<(at - 1)
        } else {
          at += 1
        }
      }
      return nil
    }

    /// Moves past one value (string, object, array, number or literal).
    mutating func skipValue() -> Bool {
      guard let byte = peek else { return false }
      switch byte {
      case 0x22: return string() != nil
      case 0x7B, 0x5B:
        var depth = 0
        while let next = peek {
          if next == 0x22 {
            guard string() != nil else { return false }
            continue
          }
          at += 1
          if next == 0x7B || next == 0x5B { depth += 1 }
          if next == 0x7D || next == 0x5D {
            depth -= 1
            if depth == 0 { return true }
          }
        }
        return false
      default:
        let start = at
        while let next = peek, next != 0x2C, next != 0x7D, next != 0x5D, next != 0x20, next != 0x0A,
          next != 0x0D, next != 0x09
        {
          at += 1
        }
        return at > start
      }
    }

    /// The ranges of the elements of the array that starts here.
    mutating func arrayElements() -> [Range<Int>]? {
      guard take(0x5B) else { return nil }
      var out: [Range<Int>] = []
      skipSpace()
      if take(0x5D) { return out }
      while true {
        skipSpace()
        let start = at
        guard skipValue() else { return nil }
        out.append(start..<at)
        skipSpace()
        if take(0x2C) { continue }
        return take(0x5D) ? out : nil
      }
    }
  }
}
