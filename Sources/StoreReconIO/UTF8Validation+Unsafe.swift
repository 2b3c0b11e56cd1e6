// Safety: every unaligned 8-byte load is at `i` with `i + 8 <= n` (32-byte steps with `i + 32 <= n`), and
// byte reads check `i + k < n` first, so nothing outside `bytes` is read.

/// Strict UTF-8 (RFC 3629) and NUL checks of a row's bytes, as every reader runs them before a row is
/// parsed: no overlong forms, no surrogates (U+D800–U+DFFF), nothing above U+10FFFF, no NUL byte.
/// A row that fails is rejected with the byte offset; no replacement character is ever made up.
///
/// 32 bytes, then eight, at a time while they are ASCII and not NUL (the common case), byte by byte
/// from the first word that is not, and words at a time again after each multi-byte character.
package enum UTF8Validation {
  /// What is wrong with a row's bytes, and where (0-based offset into the row).
  package struct Problem: Equatable, Sendable {
    /// The offset of the first byte that is invalid (or NUL).
    package let offset: Int
    /// Whether it is a NUL byte (else invalid UTF-8).
    package let isNUL: Bool

    /// The rejection reason: "invalid UTF-8 at byte N" or "NUL byte at byte N".
    package var reason: String {
      isNUL ? "NUL byte at byte \(offset)" : "invalid UTF-8 at byte \(offset)"
    }
  }

  /// The first problem in `bytes`, or `nil` when they are valid UTF-8 without NUL.
  package static func problem(in bytes: [UInt8]) -> Problem? { bytes.withUnsafeBufferPointer(problem) }

  /// The first problem in `bytes`, or `nil` when they are valid UTF-8 without NUL.
  package static func problem(_ bytes: UnsafeBufferPointer<UInt8>) -> Problem? {
    guard let base = bytes.baseAddress else { return nil }
    let n = bytes.count
    var i = asciiRun(UnsafeRawPointer(base), from: 0, count: n)
    while i < n {
      let b = base[i]
      if b < 0x80 {
        if b == 0 { return Problem(offset: i, isNUL: true) }
        i += 1
        continue
      }
      let length = sequenceLength(base, at: i, count: n)
      if length == 0 { return Problem(offset: i, isNUL: false) }
      // After a multi-byte character, words at a time again (a title with one accent stays fast).
      i = asciiRun(UnsafeRawPointer(base), from: i + length, count: n)
    }
    return nil
  }

  /// The end of the run of ASCII bytes without NUL from `start`, found 32 bytes, then eight, at a
  /// time: the start of the first word that holds another byte (or of the last partial word).
  @inline(__always)
  static func asciiRun(_ raw: UnsafeRawPointer, from start: Int, count n: Int) -> Int {
    var i = start
    let high: UInt64 = 0x8080_8080_8080_8080
    let ones: UInt64 = 0x0101_0101_0101_0101
    // 32 bytes a step while all are ASCII and none is NUL (a flagged byte: the word-wise loop finds it).
    while i + 32 <= n {
      let a = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      let b = raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
      let c = raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)
      let d = raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)
      let zero = ((a &- ones) & ~a) | ((b &- ones) & ~b) | ((c &- ones) & ~c) | ((d &- ones) & ~d)
      if (a | b | c | d | zero) & high != 0 { break }
      i += 32
    }
    while i + 8 <= n {
      let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      let zero = (word &- ones) & ~word & high
      if (word & high) | zero != 0 { break }
      i += 8
    }
    return i
  }

  /// The length of the valid multi-byte sequence starting at `i`, or 0 when it is not one.
  @inline(__always)
  static func sequenceLength(_ p: UnsafePointer<UInt8>, at i: Int, count n: Int) -> Int {
    let b = p[i]
    func continuation(_ k: Int) -> Bool { i + k < n && p[i + k] & 0xC0 == 0x80 }
    switch b {
    case 0xC2...0xDF:
      return continuation(1) ? 2 : 0
    case 0xE0...0xEF:
      guard continuation(1), continuation(2) else { return 0 }
      let second = p[i + 1]
      if b == 0xE0 && second < 0xA0 { return 0 }  // overlong
      if b == 0xED && second > 0x9F { return 0 }  // a surrogate
      return 3
    case 0xF0...0xF4:
      guard continuation(1), continuation(2), continuation(3) else { return 0 }
      let second = p[i + 1]
      if b == 0xF0 && second < 0x90 { return 0 }  // overlong
      if b == 0xF4 && second > 0x8F { return 0 }  // above U+10FFFF
      return 4
    default:
      return 0  // a continuation byte first, C0/C1 (overlong) or F5–FF
    }
  }
}
