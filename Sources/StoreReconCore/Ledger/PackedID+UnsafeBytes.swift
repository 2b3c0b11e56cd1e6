// Safety: `packed` and `intern` read `bytes[i]` only for `i < bytes.count` (the fixed positions of a
// Play order id after `count >= 24`), within the call, and keep no pointer (a pooled text is copied into
// the pool). `writePacked(into:)` writes at most ``PackedID/maximumPackedLength`` bytes: its caller
// gives room for that many (a pointer's room cannot be checked here); `withBytes` gives it a temporary
// block of exactly that size and checks (debug and release) that no more were written; the bytes it
// hands to `body` are valid for the call only. `ByteOrder.compare` reads below both counts.

extension PackedID {
  /// The packed form of `bytes` when they are empty, decimal digits or a Play order id; `nil` for any
  /// other text (which a pool then numbers).
  package static func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> PackedID? {
    let n = bytes.count
    if n == 0 { return .empty }
    guard let p = bytes.baseAddress else { return nil }
    if n <= 19 {
      var value: UInt64 = 0
      var i = 0
      while i < n {
        let d = p[i] &- 0x30
        guard d <= 9 else { break }
        value = value &* 10 &+ UInt64(d)
        i += 1
      }
      if i == n { return PackedID(value: value, meta: 1 << 30 | UInt32(n)) }
    }
    guard n >= 24, p[0] == 0x47, p[1] == 0x50, p[2] == 0x41, p[3] == 0x2E,
      p[8] == 0x2D, p[13] == 0x2D, p[18] == 0x2D
    else { return nil }
    var value: UInt64 = 0
    for i in 4..<24 where i != 8 && i != 13 && i != 18 {
      let d = p[i] &- 0x30
      guard d <= 9 else { return nil }
      value = value &* 10 &+ UInt64(d)
    }
    if n == 24 { return PackedID(value: value, meta: 2 << 30) }
    let digits = n - 26
    guard digits >= 1, digits <= 9, p[24] == 0x2E, p[25] == 0x2E else { return nil }
    guard digits == 1 || p[26] != 0x30 else { return nil }
    var renewal: UInt32 = 0
    for i in 26..<n {
      let d = p[i] &- 0x30
      guard d <= 9 else { return nil }
      renewal = renewal &* 10 &+ UInt32(d)
    }
    return PackedID(value: value, meta: 2 << 30 | (renewal + 1))
  }

  /// The packed form of `bytes`, numbering other text in `pool`.
  @inline(__always)
  package static func intern(_ bytes: UnsafeBufferPointer<UInt8>, in pool: TextPool) -> PackedID {
    if let packed = packed(bytes) { return packed }
    return .pooled(pool.intern(bytes))
  }

  /// Writes a non-pooled id's text into `out` (room for ``maximumPackedLength`` bytes); returns its length.
  package func writePacked(into out: UnsafeMutablePointer<UInt8>) -> Int {
    switch kind {
    case .empty, .pooled:
      return 0
    case .decimal:
      let n = Int(meta & 0x3FFF_FFFF)
      var v = value
      var i = n
      while i > 0 {
        i -= 1
        out[i] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
        v /= 10
      }
      return n
    case .playOrder:
      out[0] = 0x47
      out[1] = 0x50
      out[2] = 0x41
      out[3] = 0x2E
      var v = value
      var i = 23
      while i >= 4 {
        if i == 8 || i == 13 || i == 18 {
          out[i] = 0x2D
        } else {
          out[i] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
          v /= 10
        }
        i -= 1
      }
      let r = meta & 0x3FFF_FFFF
      guard r > 0 else { return 24 }
      out[24] = 0x2E
      out[25] = 0x2E
      var renewal = r - 1
      var digits = 1
      var probe = renewal
      while probe >= 10 {
        probe /= 10
        digits += 1
      }
      var k = 26 + digits
      let end = k
      repeat {
        k -= 1
        out[k] = UInt8(truncatingIfNeeded: renewal % 10) &+ 0x30
        renewal /= 10
      } while k > 26
      return end
    }
  }

  /// Calls `body` with the id's text as bytes (pooled text from `pool`).
  @inline(__always)
  func withBytes<R>(pool: TextPool, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if kind == .pooled { return pool.withBytes(poolID, body) }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: PackedID.maximumPackedLength) { buffer in
      guard let base = buffer.baseAddress else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
      let n = writePacked(into: base)
      precondition(n <= PackedID.maximumPackedLength, "PackedID.withBytes: \(n) bytes written")
      return body(UnsafeBufferPointer(start: base, count: n))
    }
  }
}

/// Byte-wise (memcmp) ordering of byte strings, shorter first on a common prefix.
enum ByteOrder {
  /// -1, 0 or 1.
  @inline(__always)
  static func compare(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Int {
    let n = min(x.count, y.count)
    if n > 0, let px = x.baseAddress, let py = y.baseAddress {
      for i in 0..<n where px[i] != py[i] { return px[i] < py[i] ? -1 : 1 }
    }
    return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
  }
}
