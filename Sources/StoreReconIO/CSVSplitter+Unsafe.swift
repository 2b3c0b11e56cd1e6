// Safety: the scratch, bounds and pending buffers are owned (freed in deinit, or when a bigger one replaces
// them) and grown before any write past their count; every word load is at `i` with `i + 8 <= n` and byte
// reads check `i < n`, so only `text[0..<n]` is read; the unescaping copy moves bytes forward inside
// `scratch[0..<n]`; fields handed out are valid until the next split.

import StoreReconPlatform

/// Splits the text of one CSV record into fields, owning the buffers the fields live in.
///
/// A record without a quote is split in place (fields point into its text); one with quotes is
/// unescaped into `scratch`. A record whose quoted field is still open at the end of its text is
/// `unterminated`: the caller copies it into the pending buffer, appends the next line and retries.
///
/// With a tab ``separator`` (Apple's tab-separated reports, which Apple writes without quoting) a
/// record is split at every tab and a quote is plain text.
final class CSVSplitter {
  /// The byte between fields: a comma (RFC 4180, quotes honoured) or a tab (no quoting).
  let separator: UInt8

  /// A splitter for `separator` (comma by default).
  init(separator: UInt8 = 0x2C) { self.separator = separator }

  enum Result: Equatable {
    case complete
    case unterminated
    case malformed(String)
  }

  private var scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4096)
  private var bounds = UnsafeMutableBufferPointer<Int>.allocate(capacity: 64)
  private var boundsCount = 0
  private var pending = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4096)
  private var pendingCount = 0
  private var fieldsInScratch = false

  deinit {
    scratch.deallocate()
    bounds.deallocate()
    pending.deallocate()
  }

  /// Start and end offsets of the last split's fields, two per field.
  var fieldBounds: UnsafeBufferPointer<Int> { UnsafeBufferPointer(rebasing: bounds[0..<boundsCount]) }

  /// The number of fields of the last split.
  var fieldCount: Int { boundsCount / 2 }

  /// Whether `line` on its own is a whole record of `expected` fields (splitting it here, so use a
  /// splitter other than the one holding a pending record).
  func standsAlone(_ line: UnsafeBufferPointer<UInt8>, expected: Int) -> Bool {
    split(line) == .complete && fieldCount == expected
  }

  /// Where the last split's fields live, given the text that was split.
  func storage(for text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    fieldsInScratch ? UnsafeBufferPointer(scratch) : text
  }

  /// Forgets the last split's fields (for a malformed record).
  func clearFields() { boundsCount = 0 }

  /// The fields of the last split as strings.
  func strings(for text: UnsafeBufferPointer<UInt8>) -> [String] {
    let store = storage(for: text)
    return stride(from: 0, to: boundsCount, by: 2).map {
      String(decoding: UnsafeBufferPointer(rebasing: store[bounds[$0]..<bounds[$0 + 1]]), as: UTF8.self)
    }
  }

  @inline(__always)
  private func addBound(_ start: Int, _ end: Int) {
    if boundsCount + 2 > bounds.count {
      let bigger = UnsafeMutableBufferPointer<Int>.allocate(capacity: bounds.count * 2)
      for i in 0..<boundsCount { bigger[i] = bounds[i] }
      bounds.deallocate()
      bounds = bigger
    }
    bounds[boundsCount] = start
    bounds[boundsCount + 1] = end
    boundsCount += 2
  }

  /// Splits one record's text into fields.
  func split(_ text: UnsafeBufferPointer<UInt8>) -> Result {
    boundsCount = 0
    let n = text.count
    guard let base = text.baseAddress, n > 0 else {
      fieldsInScratch = false
      addBound(0, 0)
      return .complete
    }
    fieldsInScratch = false
    if separator != 0x2C { return splitUnquoted(base, n) }
    #if _endian(little)
      // No quote at all (app rows): every comma of each eight bytes at once.
      if Memory.memchr(base, 0x22, n) == nil {
        var start = 0
        var i = 0
        while i + 8 <= n {
          let x = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) ^ 0x2C2C_2C2C_2C2C_2C2C
          // Exact: the high bit of each byte that is zero (a comma).
          let low = 0x7F7F_7F7F_7F7F_7F7F as UInt64
          var hits = ~(((x & low) &+ low) | x | low)
          while hits != 0 {
            let comma = i + hits.trailingZeroBitCount >> 3
            addBound(start, comma)
            start = comma + 1
            hits &= hits &- 1
          }
          i += 8
        }
        while i < n {
          if base[i] == 0x2C {
            addBound(start, i)
            start = i + 1
          }
          i += 1
        }
        addBound(start, n)
        return .complete
      }
    #endif
    // In place: fields, quoted or not, point into the text (the usual record: no `""` inside quotes).
    var i = 0
    var field = 1
    while true {
      if i < n && base[i] == 0x22 {
        let quote = CSVSplitter.next(0x22, base, i + 1, n)
        guard quote < n else { return .unterminated }
        if quote + 1 < n && base[quote + 1] == 0x22 { return splitUnescaping(base, n) }
        addBound(i + 1, quote)
        i = quote + 1
        if i < n && base[i] != 0x2C {
          return .malformed("field \(field) has text after its closing quote")
        }
      } else {
        let comma = CSVSplitter.next(0x2C, base, i, n)
        addBound(i, comma)
        i = comma
      }
      guard i < n else { return .complete }
      i += 1  // the comma
      field += 1
    }
  }

  /// Fields between every ``separator``, in place; quotes are text.
  private func splitUnquoted(_ base: UnsafePointer<UInt8>, _ n: Int) -> Result {
    var start = 0
    while true {
      let end = CSVSplitter.next(separator, base, start, n)
      addBound(start, end)
      guard end < n else { return .complete }
      start = end + 1
    }
  }

  /// The index of the first `byte` in `base[from..<n]`, or `n`; eight bytes at a time.
  @inline(__always)
  static func next(_ byte: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ n: Int) -> Int {
    var i = from
    #if _endian(little)
      let ones: UInt64 = 0x0101_0101_0101_0101
      let pattern = UInt64(byte) &* ones
      while i + 8 <= n {
        let x = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) ^ pattern
        let hits = (x &- ones) & ~x & 0x8080_8080_8080_8080
        if hits != 0 { return i + hits.trailingZeroBitCount >> 3 }
        i += 8
      }
    #endif
    while i < n {
      if base[i] == byte { return i }
      i += 1
    }
    return max(i, n)
  }

  /// A record with `""` inside quotes: copied into `scratch` whole, then split there, a quoted field
  /// with `""` unescaped in its own place (unescaping only shortens it; the fields after it stay put).
  private func splitUnescaping(_ base: UnsafePointer<UInt8>, _ n: Int) -> Result {
    boundsCount = 0
    fieldsInScratch = true
    if scratch.count < n {
      let size = max(n, scratch.count * 2)
      scratch.deallocate()
      scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: size)
    }
    guard let out = scratch.baseAddress else { return .complete }
    out.update(from: base, count: n)
    let text = UnsafePointer(out)
    var i = 0
    var field = 1
    while true {
      if i < n && out[i] == 0x22 {
        let start = i + 1
        var read = start
        var write = start
        while true {
          let quote = CSVSplitter.next(0x22, text, read, n)
          guard quote < n else { return .unterminated }
          if write != read {
            // Left by the quotes dropped so far: a forward copy never overwrites what it still reads.
            for k in 0..<(quote - read) { out[write + k] = out[read + k] }
          }
          write += quote - read
          if quote + 1 < n && out[quote + 1] == 0x22 {
            out[write] = 0x22
            write += 1
            read = quote + 2
          } else {
            read = quote + 1
            break
          }
        }
        addBound(start, write)
        i = read
        if i < n && out[i] != 0x2C {
          return .malformed("field \(field) has text after its closing quote")
        }
      } else {
        let comma = CSVSplitter.next(0x2C, text, i, n)
        addBound(i, comma)
        i = comma
      }
      guard i < n else { return .complete }
      i += 1  // the comma
      field += 1
    }
  }

  /// Copies `text` into the pending buffer (before the line reader reuses its memory).
  func startPending(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    pendingCount = 0
    return append(text, newline: false)
  }

  /// Appends `\n` and `more` to the pending record and returns the whole record.
  func appendPending(_ more: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    append(more, newline: true)
  }

  private func append(_ more: UnsafeBufferPointer<UInt8>, newline: Bool) -> UnsafeBufferPointer<UInt8> {
    let needed = pendingCount + (newline ? 1 : 0) + more.count
    if needed > pending.count {
      let bigger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(needed, pending.count * 2))
      for i in 0..<pendingCount { bigger[i] = pending[i] }
      pending.deallocate()
      pending = bigger
    }
    if newline {
      pending[pendingCount] = 0x0A
      pendingCount += 1
    }
    for i in 0..<more.count { pending[pendingCount + i] = more[i] }
    pendingCount += more.count
    return UnsafeBufferPointer(rebasing: pending[0..<pendingCount])
  }
}
