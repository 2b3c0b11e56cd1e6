// Safety: the slots and chain live on the stack for `with`'s call (both of `capacity` entries: a
// precondition, debug and release); names kept are spans of the caller's line, valid during that call; no
// insert goes past `capacity`.

public import StoreReconPlatform

/// The member names of one JSON object seen so far, for the fast paths' check that no name appears
/// twice (``JSONParser`` rejects an object that repeats one; a fast path must not let it through).
///
/// Names are kept as spans of the line in a small stack buffer, chained per bucket of a cheap hash
/// (length, first and last byte; 64 buckets), so that a name is compared only with the names of its
/// bucket. Past ``capacity`` names a new one cannot be kept: ``insert(_:)`` then says `false` (it may
/// be a repeat) and the fast path declines.
public struct JSONMemberNames {
  /// How many names are kept.
  public static let capacity = 48

  /// Per bucket: the slot of its latest name + 1 (0: none), packed 8 bits each into 8 words.
  @usableFromInline var heads: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
    0, 0, 0, 0, 0, 0, 0, 0
  )
  @usableFromInline var count = 0
  @usableFromInline let slots: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>
  /// Per slot: the slot of the bucket's previous name + 1 (0: none).
  @usableFromInline let chain: UnsafeMutableBufferPointer<UInt8>

  @usableFromInline init(
    slots: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>, chain: UnsafeMutableBufferPointer<UInt8>
  ) {
    precondition(
      slots.count == JSONMemberNames.capacity && chain.count == JSONMemberNames.capacity,
      "JSONMemberNames: buffers of capacity slots")
    self.slots = slots
    self.chain = chain
  }

  /// Calls `body` with an empty set whose storage lives on the stack for the call.
  @inlinable
  public static func with<R>(_ body: (inout JSONMemberNames) -> R) -> R {
    withUnsafeTemporaryAllocation(of: UnsafeBufferPointer<UInt8>.self, capacity: capacity) { buffer in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { links in
        var names = JSONMemberNames(slots: buffer, chain: links)
        return body(&names)
      }
    }
  }

  /// Adds `name` (the raw bytes between the quotes, without escapes); `false` when the object already
  /// had it — or may have had it (more names than are kept).
  @inlinable
  public mutating func insert(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    let n = name.count
    var h = n &* 31
    if n > 0, let p = name.baseAddress { h = h &+ Int(p[0]) &* 7 &+ Int(p[n - 1]) }
    let bucket = h & 63
    var link = withUnsafeBytes(of: &heads) { Int($0[bucket]) }
    // Only the names of this bucket are compared.
    while link != 0 {
      let other = slots[link - 1]
      if other.count == n {
        if n == 0 { return false }
        if let a = name.baseAddress, let b = other.baseAddress,
          Memory.memcmp(UnsafeRawPointer(a), UnsafeRawPointer(b), n) == 0
        {
          return false
        }
      }
      link = Int(chain[link - 1])
    }
    guard count < JSONMemberNames.capacity else { return false }
    slots[count] = name
    chain[count] = withUnsafeBytes(of: &heads) { $0[bucket] }
    count += 1
    let slot = UInt8(count)
    withUnsafeMutableBytes(of: &heads) { $0[bucket] = slot }
    return true
  }

}
