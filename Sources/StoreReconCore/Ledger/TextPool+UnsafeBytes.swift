import StoreReconPlatform

// Safety: the texts given are read within the call only (hashed, compared, copied into the arena),
// never kept. `hash` loads whole words at offsets `i` with `i + 8 <= count`, then single bytes below
// `count`; `equals` compares `text.count` bytes at a text's start in the arena only after checking
// that the text is exactly that long. `withBytes` hands `body` the arena's bytes of text `id`, whose
// bounds it takes from `ends` (checked by the array); they are valid for the call only, and
// the door checks (debug and release) that they lie in the arena.

extension TextPool {
  /// The number of the text spelled by `text` (UTF-8), adding it when new.
  @inline(__always)
  package func intern(_ text: UnsafeBufferPointer<UInt8>) -> UInt32 {
    guard TextPool.allASCII(text) else { return internNonASCII(text) }
    let hash = TextPool.hash(text)
    if slots.isEmpty { grow() }
    let tag = hash >> 32
    var i = Int(truncatingIfNeeded: tag) & mask
    while true {
      let slot = slots[i]
      if slot == 0 { break }
      if slot >> 32 == tag {
        let id = UInt32(truncatingIfNeeded: slot) - 1
        if equals(id, text) { return id }
      }
      i = (i + 1) & mask
    }
    let id = append(text, ascii: true)
    slots[i] = tag << 32 | UInt64(id + 1)
    if ends.count * 2 > slots.count { grow() }
    return id
  }

  /// The number of `text` if the pool holds it.
  func find(_ text: UnsafeBufferPointer<UInt8>) -> UInt32? {
    guard TextPool.allASCII(text) else {
      return nonASCII[String(decoding: text, as: UTF8.self)]
    }
    guard !slots.isEmpty else { return nil }
    let hash = TextPool.hash(text)
    let tag = hash >> 32
    var i = Int(truncatingIfNeeded: tag) & mask
    while true {
      let slot = slots[i]
      if slot == 0 { return nil }
      if slot >> 32 == tag {
        let id = UInt32(truncatingIfNeeded: slot) - 1
        if equals(id, text) { return id }
      }
      i = (i + 1) & mask
    }
  }

  /// Calls `body` with the bytes of text `id`.
  @inline(__always)
  package func withBytes<R>(_ id: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let i = Int(id)
    let start = i == 0 ? 0 : ends[i - 1]
    let end = ends[i]
    precondition(start <= end && end <= bytes.count, "TextPool.withBytes: text \(id) outside the arena")
    return bytes.withUnsafeBufferPointer { all in body(UnsafeBufferPointer(rebasing: all[start..<end])) }
  }

  func internNonASCII(_ text: UnsafeBufferPointer<UInt8>) -> UInt32 {
    let key = String(decoding: text, as: UTF8.self)
    if let id = nonASCII[key] { return id }
    let id = append(text, ascii: false)
    nonASCII[key] = id
    return id
  }

  func append(_ text: UnsafeBufferPointer<UInt8>, ascii isASCII: Bool) -> UInt32 {
    bytes.append(contentsOf: text)
    ends.append(bytes.count)
    ascii.append(isASCII)
    return UInt32(truncatingIfNeeded: ends.count - 1)
  }

  @inline(__always)
  func equals(_ id: UInt32, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
    let i = Int(id)
    let start = i == 0 ? 0 : ends[i - 1]
    let end = ends[i]
    guard end - start == text.count else { return false }
    guard let p = text.baseAddress, text.count > 0 else { return true }
    return bytes.withUnsafeBufferPointer { all in
      guard let base = all.baseAddress else { return false }
      return Memory.memcmp(base + start, p, text.count) == 0
    }
  }

  @inline(__always)
  static func allASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    var any: UInt8 = 0
    for b in text { any |= b }
    return any < 0x80
  }

  /// A fast 64-bit hash of a byte string (word-at-a-time multiply-xorshift).
  @inline(__always)
  static func hash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let n = text.count
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: n)
    guard let base = text.baseAddress else { return mix(h) }
    let p = UnsafeRawPointer(base)
    var i = 0
    while i + 8 <= n {
      h = (h ^ p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
      h ^= h >> 29
      i += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while i < n {
      tail |= UInt64(base[i]) << shift
      shift += 8
      i += 1
    }
    return mix(h ^ tail)
  }
}
