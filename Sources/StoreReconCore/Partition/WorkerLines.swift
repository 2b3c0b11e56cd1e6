/// The line protocol `storerecon worker` speaks on stdin and stdout (docs/partitions.md#the-worker-protocol).
///
/// In, one partition's share of the engine-keyed inputs:
///
///     storerecon-worker 1
///     partition I N
///     inputs <SHA-256 the plan printed>
///     L <input index> <line number> <the line's bytes, escaped>
///     …
///     end
///
/// `L` lines come in any order; the worker puts each input's lines back in line order. Out: the
/// partition's partial (``RunPartial``'s format), each engine-keyed input's counts and rejects in it.
///
/// The tagger (`storerecon worker tag`) writes `P <partition or *> L …` lines: the `L` line and the
/// partition it goes to (`*`: every partition, a CSV header).
///
/// A field escapes `\` `\t` `\n` `\r` as in ``PartialText``, and every byte that is not part of valid
/// UTF-8 as `\xHH`, so that each line is valid UTF-8 text (what an engine's text pipes need).
package enum WorkerLines {
  /// The first line of a worker's input.
  package static let header = "storerecon-worker 1"
  /// The first line of a plan (`storerecon worker plan`).
  package static let planHeader = "storerecon-plan 1"

  /// One input line as the worker reads it.
  package struct Line: Sendable, Equatable {
    package var input: Int
    package var number: Int
    package var bytes: [UInt8]

    /// A line of input `input`, 1-based line `number`.
    package init(input: Int, number: Int, bytes: [UInt8]) {
      self.input = input
      self.number = number
      self.bytes = bytes
    }
  }

  /// Appends `L <input> <number> <escaped bytes>` and a line feed to `out`.
  package static func appendLine(
    input: Int, number: Int, bytes: some Collection<UInt8>, to out: inout [UInt8]
  ) {
    out.append(0x4C)
    out.append(0x09)
    appendDecimal(input, to: &out)
    out.append(0x09)
    appendDecimal(number, to: &out)
    out.append(0x09)
    appendEscaped(bytes, to: &out)
    out.append(0x0A)
  }

  /// Appends the decimal digits of `n` (≥ 0).
  package static func appendDecimal(_ n: Int, to out: inout [UInt8]) {
    var v = max(n, 0)
    var count = 1
    var t = v
    while t >= 10 {
      t /= 10
      count += 1
    }
    let start = out.count
    out.append(contentsOf: repeatElement(0x30, count: count))
    var k = start + count - 1
    repeat {
      out[k] = 0x30 + UInt8(v % 10)
      v /= 10
      k -= 1
    } while v > 0
  }

  /// Appends `bytes` escaped: `\\ \t \n \r`, and `\xHH` for each byte outside valid UTF-8. Runs
  /// of bytes that need no escape are copied whole.
  package static func appendEscaped(_ bytes: some Collection<UInt8>, to out: inout [UInt8]) {
    let a = bytes as? [UInt8] ?? Array(bytes)
    out.reserveCapacity(out.count + a.count + 8)
    var run = 0
    var i = 0
    while i < a.count {
      let b = a[i]
      if b >= 0x20 && b < 0x80 && b != 0x5C || b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D {
        i += 1
        continue
      }
      if b >= 0x80 {
        let n = validSequenceLength(a, at: i)
        if n > 0 {
          i += n
          continue
        }
      }
      out.append(contentsOf: a[run..<i])
      switch b {
      case 0x5C: out += [0x5C, 0x5C]
      case 0x09: out += [0x5C, 0x74]
      case 0x0A: out += [0x5C, 0x6E]
      case 0x0D: out += [0x5C, 0x72]
      default: out += [0x5C, 0x78, hexDigit(b >> 4), hexDigit(b & 0xF)]
      }
      i += 1
      run = i
    }
    out.append(contentsOf: a[run..<a.count])
  }

  /// Parses an `L` line's fields after the tag (input, number, bytes).
  package static func parseLine(_ line: ArraySlice<UInt8>, line at: Int) throws(PartialText.FormatError)
    -> Line
  {
    let fields = line.split(separator: 0x09, maxSplits: 3, omittingEmptySubsequences: false)
    guard fields.count == 4, fields[0].elementsEqual([0x4C]) else {
      throw PartialText.FormatError(line: at, reason: "expected 'L<TAB>input<TAB>line<TAB>bytes'")
    }
    guard let input = decimal(fields[1]), let number = decimal(fields[2]), number >= 1 else {
      throw PartialText.FormatError(
        line: at, reason: "an L line's input and line number must be decimal numbers")
    }
    return Line(input: input, number: number, bytes: try unescaped(fields[3], line: at))
  }

  /// The bytes an escaped field stands for.
  package static func unescaped(_ field: ArraySlice<UInt8>, line at: Int) throws(PartialText.FormatError)
    -> [UInt8]
  {
    var out: [UInt8] = []
    out.reserveCapacity(field.count)
    var i = field.startIndex
    while i < field.endIndex {
      let b = field[i]
      guard b == 0x5C else {
        out.append(b)
        i += 1
        continue
      }
      guard i + 1 < field.endIndex else {
        throw PartialText.FormatError(line: at, reason: "a field ends in a lone '\\'")
      }
      switch field[i + 1] {
      case 0x5C: out.append(0x5C)
      case 0x74: out.append(0x09)
      case 0x6E: out.append(0x0A)
      case 0x72: out.append(0x0D)
      case 0x78:
        guard i + 3 < field.endIndex, let hi = hexValue(field[i + 2]), let lo = hexValue(field[i + 3]) else {
          throw PartialText.FormatError(line: at, reason: "'\\x' needs two hex digits")
        }
        out.append(hi << 4 | lo)
        i += 4
        continue
      default:
        throw PartialText.FormatError(line: at, reason: "unknown escape in an L line")
      }
      i += 2
    }
    return out
  }

  /// A non-negative decimal number of at most 18 digits.
  package static func decimal(_ text: some Collection<UInt8>) -> Int? {
    guard !text.isEmpty, text.count <= 18 else { return nil }
    var n = 0
    for b in text {
      guard b >= 0x30 && b <= 0x39 else { return nil }
      n = n * 10 + Int(b - 0x30)
    }
    return n
  }

  /// The length of the valid UTF-8 sequence starting at `i` (a lead byte ≥ 0x80), 0 if there is none.
  static func validSequenceLength(_ a: [UInt8], at i: Int) -> Int {
    let b = a[i]
    let (n, low, high): (Int, UInt8, UInt8)
    switch b {
    case 0xC2...0xDF: (n, low, high) = (2, 0x80, 0xBF)
    case 0xE0: (n, low, high) = (3, 0xA0, 0xBF)
    case 0xE1...0xEC, 0xEE...0xEF: (n, low, high) = (3, 0x80, 0xBF)
    case 0xED: (n, low, high) = (3, 0x80, 0x9F)
    case 0xF0: (n, low, high) = (4, 0x90, 0xBF)
    case 0xF1...0xF3: (n, low, high) = (4, 0x80, 0xBF)
    case 0xF4: (n, low, high) = (4, 0x80, 0x8F)
    default: return 0
    }
    guard i + n <= a.count, a[i + 1] >= low, a[i + 1] <= high else { return 0 }
    for k in 2..<max(n, 2) where a[i + k] & 0xC0 != 0x80 { return 0 }
    return n
  }

  static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x61 + v - 10 }

  static func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case 0x30...0x39: return b - 0x30
    case 0x61...0x66: return b - 0x61 + 10
    case 0x41...0x46: return b - 0x41 + 10
    default: return nil
    }
  }
}
