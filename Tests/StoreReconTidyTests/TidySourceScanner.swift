// The Swift reading the tidy checks need, and no more: a lexer that separates code from comments and
// string literals, a tokenizer over the code, and a scanner that finds every function-like body and its
// length. It is not a parser; see the limits in TidyCheckers.swift.

/// One comment line: its 1-based line number and its text (the `//` or `/*` included).
struct SourceComment: Equatable, Sendable {
  var line: Int
  var text: String
}

/// One token of code: an identifier, a number, `->` or a single punctuation character.
struct SourceToken: Equatable, Sendable {
  var text: String
  var line: Int
}

/// A Swift file split for the tidy checks. `code` is the file's UTF-8 with every comment and every
/// string literal's contents blanked to spaces (newlines kept, so offsets and line numbers still match);
/// string interpolations stay code. `tokens` are the tokens of `code`.
struct ScannedSource: Sendable {
  var code: [UInt8]
  var comments: [SourceComment]
  var tokens: [SourceToken]

  init(_ text: String) {
    var lexer = Lexer(Array(text.utf8))
    lexer.run()
    code = lexer.code
    comments = lexer.comments()
    tokens = Self.tokenize(code)
  }

  /// The tokens of each line, by 1-based line number (lines without code are absent).
  var tokensByLine: [Int: [SourceToken]] { Dictionary(grouping: tokens, by: \.line) }

  private static func isIdentifier(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...0xFF:
      return true
    default: return false
    }
  }

  private static func tokenize(_ code: [UInt8]) -> [SourceToken] {
    var tokens: [SourceToken] = []
    var index = 0
    var line = 1
    func text(_ range: Range<Int>) -> String { String(decoding: code[range], as: UTF8.self) }
    while index < code.count {
      let byte = code[index]
      let start = index
      if byte == Ascii.newline {
        line += 1
        index += 1
      } else if byte == Ascii.space || byte == Ascii.tab || byte == Ascii.carriageReturn {
        index += 1
      } else if isIdentifier(byte) {
        while index < code.count && isIdentifier(code[index]) { index += 1 }
        tokens.append(SourceToken(text: text(start..<index), line: line))
      } else if byte == Ascii.backtick {
        index += 1
        while index < code.count && code[index] != Ascii.backtick && code[index] != Ascii.newline {
          index += 1
        }
        tokens.append(SourceToken(text: text(start + 1..<index), line: line))
        if index < code.count && code[index] == Ascii.backtick { index += 1 }
      } else if byte == Ascii.minus && index + 1 < code.count && code[index + 1] == Ascii.greater {
        index += 2
        tokens.append(SourceToken(text: "->", line: line))
      } else {
        index += 1
        tokens.append(SourceToken(text: text(start..<index), line: line))
      }
    }
    return tokens
  }
}

enum Ascii {
  static let newline = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")
  static let space = UInt8(ascii: " ")
  static let tab = UInt8(ascii: "\t")
  static let slash = UInt8(ascii: "/")
  static let star = UInt8(ascii: "*")
  static let quote = UInt8(ascii: "\"")
  static let hash = UInt8(ascii: "#")
  static let backslash = UInt8(ascii: "\\")
  static let backtick = UInt8(ascii: "`")
  static let openParen = UInt8(ascii: "(")
  static let closeParen = UInt8(ascii: ")")
  static let minus = UInt8(ascii: "-")
  static let greater = UInt8(ascii: ">")
}

/// Blanks comments and string-literal contents. Modes nest: code inside a string's `\(…)` is code again,
/// and may itself hold strings. Handles `//`, nested `/* */`, `"…"`, `"""…"""`, raw strings with any
/// number of `#`, escapes and `\#(…)` interpolation in raw strings. Does not handle regex literals.
private struct Lexer {
  private enum Mode {
    /// Code; `parens` counts the parentheses open inside a string interpolation (nil outside one).
    case code(parens: Int?)
    case string(multiline: Bool, hashes: Int)
  }

  let input: [UInt8]
  private(set) var code: [UInt8]
  private var commentRanges: [Range<Int>] = []
  private var modes: [Mode] = [.code(parens: nil)]
  private var index = 0

  init(_ input: [UInt8]) {
    self.input = input
    self.code = input
  }

  mutating func run() {
    while index < input.count {
      switch modes[modes.count - 1] {
      case .code(let parens): stepCode(parens: parens)
      case .string(let multiline, let hashes): stepString(multiline: multiline, hashes: hashes)
      }
    }
  }

  func comments() -> [SourceComment] {
    var lineStarts = [0]
    for (offset, byte) in input.enumerated() where byte == Ascii.newline { lineStarts.append(offset + 1) }
    func line(of offset: Int) -> Int {
      var low = 0
      var high = lineStarts.count
      while high - low > 1 {
        let middle = (low + high) / 2
        if lineStarts[middle] <= offset { low = middle } else { high = middle }
      }
      return low + 1
    }
    return commentRanges.flatMap { range in
      let first = line(of: range.lowerBound)
      let text = String(decoding: input[range], as: UTF8.self)
      return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
        SourceComment(line: first + $0.offset, text: String($0.element))
      }
    }
  }

  private func byte(_ offset: Int) -> UInt8 { offset < input.count ? input[offset] : 0 }

  private mutating func blank(_ range: Range<Int>) {
    for offset in range.clamped(to: 0..<input.count) where code[offset] != Ascii.newline {
      code[offset] = Ascii.space
    }
  }

  private mutating func stepCode(parens: Int?) {
    let current = input[index]
    if current == Ascii.slash && byte(index + 1) == Ascii.slash {
      var end = index
      while end < input.count && input[end] != Ascii.newline { end += 1 }
      comment(index..<end)
    } else if current == Ascii.slash && byte(index + 1) == Ascii.star {
      var end = index + 2
      var depth = 1
      while end < input.count && depth > 0 {
        if input[end] == Ascii.slash && byte(end + 1) == Ascii.star {
          depth += 1
          end += 2
        } else if input[end] == Ascii.star && byte(end + 1) == Ascii.slash {
          depth -= 1
          end += 2
        } else {
          end += 1
        }
      }
      comment(index..<min(end, input.count))
    } else if let opener = stringOpener() {
      modes.append(.string(multiline: opener.multiline, hashes: opener.hashes))
      index += opener.length
    } else if let depth = parens, current == Ascii.openParen {
      modes[modes.count - 1] = .code(parens: depth + 1)
      index += 1
    } else if let depth = parens, current == Ascii.closeParen {
      if depth == 0 { modes.removeLast() } else { modes[modes.count - 1] = .code(parens: depth - 1) }
      index += 1
    } else {
      index += 1
    }
  }

  private mutating func comment(_ range: Range<Int>) {
    commentRanges.append(range)
    blank(range)
    index = range.upperBound
  }

  /// A string literal opening at `index`: `"`, `"""`, or either after one or more `#`.
  private func stringOpener() -> (length: Int, multiline: Bool, hashes: Int)? {
    var hashes = 0
    while byte(index + hashes) == Ascii.hash { hashes += 1 }
    let quote = index + hashes
    guard byte(quote) == Ascii.quote else { return nil }
    let multiline = byte(quote + 1) == Ascii.quote && byte(quote + 2) == Ascii.quote
    return (hashes + (multiline ? 3 : 1), multiline, hashes)
  }

  private mutating func stepString(multiline: Bool, hashes: Int) {
    let current = input[index]
    if current == Ascii.backslash {
      var after = index + 1
      while after - index - 1 < hashes && byte(after) == Ascii.hash { after += 1 }
      guard after - index - 1 == hashes else {  // a backslash in a raw string: just text
        blank(index..<index + 1)
        index += 1
        return
      }
      if byte(after) == Ascii.openParen {  // `\(` or `\#(`: the interpolation is code
        blank(index..<after)
        modes.append(.code(parens: 0))
        index = after + 1
      } else {  // an escape such as `\n`, `\"`, `\\` (or `\#n` in a raw string)
        blank(index..<after + 1)
        index = after + 1
      }
      return
    }
    if current == Ascii.quote {
      let quotes = multiline ? 3 : 1
      let closes =
        (0..<quotes).allSatisfy { byte(index + $0) == Ascii.quote }
        && (0..<hashes).allSatisfy { byte(index + quotes + $0) == Ascii.hash }
      if closes {
        modes.removeLast()
        index += quotes + hashes
        return
      }
    }
    if current == Ascii.newline && !multiline {  // unterminated: end it with its line
      modes.removeLast()
      return
    }
    blank(index..<index + 1)
    index += 1
  }
}
