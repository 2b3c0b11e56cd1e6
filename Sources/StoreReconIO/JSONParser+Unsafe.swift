// Safety: the parser reads `bytes` only during `parse` (every value it returns is copied into Strings and
// arrays), and every subscript is at an index checked below `bytes.count` just before (a literal checks
// `index + count <= bytes.count`, a \u escape `index + 4`).

/// A small strict JSON parser (RFC 8259) over UTF-8 bytes: one value, surrounded by optional whitespace.
///
/// Numbers are validated and kept as text; strings resolve every escape, `\uXXXX` surrogate pairs
/// included (a lone surrogate is an error: no replacement character is made up). A member name twice in
/// one object is an error (no "last one wins"). Nesting deeper than ``maximumDepth`` is an error.
@usableFromInline package struct JSONParser {
  /// The deepest nesting of arrays and objects accepted.
  package static let maximumDepth = 256

  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0
  private var depth = 0
  private var scratch: [UInt8] = []

  private init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// Whether `bytes` hold one valid JSON value (the fast paths' check of what they do not take apart).
  @usableFromInline
  static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { (try? parse(bytes)) != nil }

  /// Parses exactly one JSON value from `bytes`.
  package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) -> JSONValue {
    var parser = JSONParser(bytes)
    parser.skipWhitespace()
    let value = try parser.parseValue()
    parser.skipWhitespace()
    guard parser.index == bytes.count else {
      throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value")
    }
    return value
  }

  /// Parses exactly one JSON value from `text`.
  package static func parse(_ text: String) throws(JSONError) -> JSONValue {
    var text = text
    let result: Result<JSONValue, JSONError> = text.withUTF8 { bytes in
      Result { () throws(JSONError) -> JSONValue in try parse(bytes) }
    }
    return try result.get()
  }

  /// Parses exactly one JSON value from `bytes`.
  package static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
    let result: Result<JSONValue, JSONError> = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONError) -> JSONValue in try parse(buffer) }
    }
    return try result.get()
  }

  // MARK: - Values

  private mutating func parseValue() throws(JSONError) -> JSONValue {
    guard index < bytes.count else { throw error("unexpected end of input") }
    switch bytes[index] {
    case 0x7B: return try parseObject()
    case 0x5B: return try parseArray()
    case 0x22: return .string(try parseString())
    case 0x74: try literal("true"); return .bool(true)
    case 0x66: try literal("false"); return .bool(false)
    case 0x6E: try literal("null"); return .null
    case 0x2D, 0x30...0x39: return .number(try parseNumber())
    default: throw error("unexpected \(describeCurrent())")
    }
  }

  private mutating func parseObject() throws(JSONError) -> JSONValue {
    try enter()
    index += 1
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if index < bytes.count && bytes[index] == 0x7D {
      index += 1
      depth -= 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == 0x22 else {
        throw error("expected a member name, found \(describeCurrent())")
      }
      let keyStart = index
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == 0x3A else {
        throw error("expected ':', found \(describeCurrent())")
      }
      index += 1
      skipWhitespace()
      let value = try parseValue()
      guard members.updateValue(value, forKey: key) == nil else {
        index = keyStart
        throw error("the member name \"\(RawText.truncated(key))\" appears twice in an object")
      }
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of input in an object") }
      if bytes[index] == 0x2C {
        index += 1
      } else if bytes[index] == 0x7D {
        index += 1
        depth -= 1
        return .object(members)
      } else {
        throw error("expected ',' or '}', found \(describeCurrent())")
      }
    }
  }

  private mutating func parseArray() throws(JSONError) -> JSONValue {
    try enter()
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count && bytes[index] == 0x5D {
      index += 1
      depth -= 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue())
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of input in an array") }
      if bytes[index] == 0x2C {
        index += 1
      } else if bytes[index] == 0x5D {
        index += 1
        depth -= 1
        return .array(elements)
      } else {
        throw error("expected ',' or ']', found \(describeCurrent())")
      }
    }
  }

  private mutating func enter() throws(JSONError) {
    depth += 1
    guard depth <= JSONParser.maximumDepth else {
      throw error("nesting deeper than \(JSONParser.maximumDepth)")
    }
  }

  private mutating func literal(_ word: StaticString) throws(JSONError) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw error("unexpected \(describeCurrent())") }
    let start = word.utf8Start
    for k in 0..<count where bytes[index + k] != start[k] {
      throw error("unexpected \(describeCurrent())")
    }
    index += count
  }

  private mutating func parseNumber() throws(JSONError) -> String {
    let start = index
    if bytes[index] == 0x2D { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs digits") }
    if bytes[index] == 0x30 {
      index += 1
      if index < bytes.count && isDigit(bytes[index]) { throw error("a number cannot start with 0") }
    } else {
      while index < bytes.count && isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count && bytes[index] == 0x2E {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs digits after '.'") }
      while index < bytes.count && isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count && (bytes[index] == 0x65 || bytes[index] == 0x45) {
      index += 1
      if index < bytes.count && (bytes[index] == 0x2B || bytes[index] == 0x2D) { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw error("a number needs digits in its exponent")
      }
      while index < bytes.count && isDigit(bytes[index]) { index += 1 }
    }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
  }

  // MARK: - Strings

  private mutating func parseString() throws(JSONError) -> String {
    index += 1  // opening quote
    let start = index
    // Fast path: no escape before the closing quote.
    while index < bytes.count {
      let b = bytes[index]
      if b == 0x22 {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        index += 1
        return text
      }
      if b == 0x5C { break }
      if b < 0x20 { throw error("a control character must be escaped in a string") }
      index += 1
    }
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
    while index < bytes.count {
      let b = bytes[index]
      if b == 0x22 {
        index += 1
        return String(decoding: scratch, as: UTF8.self)
      }
      if b < 0x20 { throw error("a control character must be escaped in a string") }
      if b != 0x5C {
        scratch.append(b)
        index += 1
        continue
      }
      index += 1
      guard index < bytes.count else { break }
      let e = bytes[index]
      index += 1
      switch e {
      case 0x22: scratch.append(0x22)
      case 0x5C: scratch.append(0x5C)
      case 0x2F: scratch.append(0x2F)
      case 0x62: scratch.append(0x08)
      case 0x66: scratch.append(0x0C)
      case 0x6E: scratch.append(0x0A)
      case 0x72: scratch.append(0x0D)
      case 0x74: scratch.append(0x09)
      case 0x75:
        var scalar = try hex4()
        if scalar >= 0xD800 && scalar <= 0xDBFF {
          if index + 1 < bytes.count && bytes[index] == 0x5C && bytes[index + 1] == 0x75 {
            let save = index
            index += 2
            let low = try hex4()
            if low >= 0xDC00 && low <= 0xDFFF {
              scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else {
              index = save
              throw error("a lone surrogate \\u\(hex(scalar)) in a string")
            }
          } else {
            throw error("a lone surrogate \\u\(hex(scalar)) in a string")
          }
        } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
          throw error("a lone surrogate \\u\(hex(scalar)) in a string")
        }
        appendUTF8(scalar)
      default:
        index -= 1
        throw error("invalid escape '\\\(describeByte(e))' in a string")
      }
    }
    throw error("unterminated string")
  }

  private func hex(_ scalar: UInt32) -> String {
    let text = String(scalar, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - text.count)) + text
  }

  private mutating func hex4() throws(JSONError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("\\u needs four hex digits") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let b = bytes[index]
      let digit: UInt32
      switch b {
      case 0x30...0x39: digit = UInt32(b - 0x30)
      case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
      case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
      default: throw error("\\u needs four hex digits")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  private mutating func appendUTF8(_ scalar: UInt32) {
    if scalar < 0x80 {
      scratch.append(UInt8(scalar))
    } else if scalar < 0x800 {
      scratch.append(UInt8(0xC0 | scalar >> 6))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    } else if scalar < 0x10000 {
      scratch.append(UInt8(0xE0 | scalar >> 12))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    } else {
      scratch.append(UInt8(0xF0 | scalar >> 18))
      scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  // MARK: - Helpers

  @inline(__always)
  private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      let b = bytes[index]
      guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
      index += 1
    }
  }

  private func describeCurrent() -> String {
    guard index < bytes.count else { return "end of input" }
    return "'\(describeByte(bytes[index]))'"
  }

  private func describeByte(_ b: UInt8) -> String {
    b >= 0x20 && b < 0x7F ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16, uppercase: true)
  }

  private func error(_ message: String) -> JSONError { JSONError(message, at: index) }
}
