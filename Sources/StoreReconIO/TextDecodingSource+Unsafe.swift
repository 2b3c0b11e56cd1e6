// Safety: the raw buffer is owned (at least 16 bytes, freed in deinit) with `0 <= start <= end <= raw.count`;
// the UTF-16 loop runs while 8 bytes of room are left and one step writes at most 5 (an unpaired surrogate's
// byte and a 4-byte character), so it never writes past `out`; callers give at least 8 bytes (precondition,
// debug and release).

/// Text bytes as UTF-8, whatever the file's byte-order mark says.
///
/// `EF BB BF` (UTF-8 BOM) is stripped; `FF FE` (UTF-16LE) and `FE FF` (UTF-16BE) text is converted
/// to UTF-8 as it streams (an unpaired surrogate becomes the byte `FF`, never valid UTF-8, so that its
/// row is rejected by ``UTF8Validation`` rather than read with a made-up character). Without a BOM the bytes pass through.
package final class TextDecodingSource: ByteSource {
  /// The encoding found at the start of the text.
  package enum Encoding: Sendable, Equatable {
    /// UTF-8, with or without a BOM.
    case utf8
    /// UTF-16 little-endian (BOM `FF FE`).
    case utf16LittleEndian
    /// UTF-16 big-endian (BOM `FE FF`).
    case utf16BigEndian
  }

  private let source: any ByteSource
  private let displayName: String
  private var detected: Encoding?
  private let raw: UnsafeMutableBufferPointer<UInt8>
  private var start = 0
  private var end = 0
  private var inputEnded = false
  private var pendingHigh: UInt32?

  /// Decodes the text read from `source`; errors name `displayName`.
  package init(source: any ByteSource, displayName: String, bufferSize: Int = 64 * 1024) {
    self.source = source
    self.displayName = displayName
    raw = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bufferSize, 16))
  }

  deinit { raw.deallocate() }

  /// The encoding of the text; reads its first bytes if nothing was read yet.
  package func encoding() throws(InputError) -> Encoding {
    if let detected { return detected }
    while end < 3 && !inputEnded { try fill() }
    let found: Encoding
    if end >= 3 && raw[0] == 0xEF && raw[1] == 0xBB && raw[2] == 0xBF {
      found = .utf8
      start = 3
    } else if end >= 2 && raw[0] == 0xFF && raw[1] == 0xFE {
      found = .utf16LittleEndian
      start = 2
    } else if end >= 2 && raw[0] == 0xFE && raw[1] == 0xFF {
      found = .utf16BigEndian
      start = 2
    } else {
      found = .utf8
    }
    detected = found
    return found
  }

  /// Reads the next UTF-8 bytes; `0` at the end.
  package func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(InputError) -> Int {
    // Once per chunk read. With fewer bytes the UTF-16 conversion would return 0, which means the end.
    precondition(
      buffer.count >= 8, "ByteSource.read(into:): the buffer holds at least 8 bytes (given \(buffer.count))")
    switch try encoding() {
    case .utf8:
      if start < end {
        let n = min(end - start, buffer.count)
        for i in 0..<n { buffer[i] = raw[start + i] }
        start += n
        return n
      }
      return try source.read(into: buffer)
    case .utf16LittleEndian:
      return try convert(into: buffer, littleEndian: true)
    case .utf16BigEndian:
      return try convert(into: buffer, littleEndian: false)
    }
  }

  /// What ``convert(into:littleEndian:)`` puts for an unpaired surrogate (no scalar has this value).
  static let unpaired: UInt32 = 0xFFFF_FFFF

  private func convert(into out: UnsafeMutableBufferPointer<UInt8>, littleEndian: Bool) throws(InputError)
    -> Int
  {
    var o = 0
    @inline(__always) func put(_ scalar: UInt32) {
      if scalar == TextDecodingSource.unpaired {
        out[o] = 0xFF
        o += 1
      } else if scalar < 0x80 {
        out[o] = UInt8(scalar)
        o += 1
      } else if scalar < 0x800 {
        out[o] = UInt8(0xC0 | scalar >> 6)
        out[o + 1] = UInt8(0x80 | scalar & 0x3F)
        o += 2
      } else if scalar < 0x10000 {
        out[o] = UInt8(0xE0 | scalar >> 12)
        out[o + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
        out[o + 2] = UInt8(0x80 | scalar & 0x3F)
        o += 3
      } else {
        out[o] = UInt8(0xF0 | scalar >> 18)
        out[o + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
        out[o + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
        out[o + 3] = UInt8(0x80 | scalar & 0x3F)
        o += 4
      }
    }
    while o + 8 <= out.count {
      if end - start < 2 {
        if inputEnded {
          if end - start == 1 {
            throw .malformed(path: displayName, reason: "UTF-16 text ends in the middle of a character")
          }
          if pendingHigh != nil {
            pendingHigh = nil
            put(TextDecodingSource.unpaired)
          }
          return o
        }
        if o > 0 { return o }
        try fill()
        continue
      }
      let a = UInt32(raw[start])
      let b = UInt32(raw[start + 1])
      start += 2
      let unit = littleEndian ? a | b << 8 : a << 8 | b
      if let high = pendingHigh {
        pendingHigh = nil
        if unit >= 0xDC00 && unit <= 0xDFFF {
          put(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00))
          continue
        }
        put(TextDecodingSource.unpaired)
      }
      if unit >= 0xD800 && unit <= 0xDBFF {
        pendingHigh = unit
      } else if unit >= 0xDC00 && unit <= 0xDFFF {
        put(TextDecodingSource.unpaired)
      } else {
        put(unit)
      }
    }
    return o
  }

  /// Moves unread bytes to the front and reads more after them.
  private func fill() throws(InputError) {
    if start > 0 {
      let remaining = end - start
      for i in 0..<remaining { raw[i] = raw[start + i] }
      start = 0
      end = remaining
    }
    guard end < raw.count else { return }
    let n = try source.read(into: UnsafeMutableBufferPointer(rebasing: raw[end...]))
    if n == 0 { inputEnded = true }
    end += n
  }
}
