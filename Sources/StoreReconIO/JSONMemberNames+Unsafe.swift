public import StoreReconPlatform

/// The member names of one JSON object seen so far, for the fast paths' check that no name appears
/// twice (``JSONParser`` rejects an object that repeats one; a fast path must not let it through).
///
/// Names are kept as spans of the line in a small stack buffer, with a 64-bucket mask of a cheap hash
/// (length, first and last byte), so that most names are new at a glance and only a bucket hit
/// compares bytes. Past ``capacity`` names a hit that matches none of the kept ones cannot be told
/// apart from a repeat: ``insert(_:)`` then says so and the fast path declines.
public struct JSONMemberNames {
  /// How many names are kept.
  public static let capacity = 48

  @usableFromInline var mask: UInt64 = 0
  @usableFromInline var count = 0
  @usableFromInline let slots: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>

  @usableFromInline init(slots: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>) {
    precondition(slots.count == JSONMemberNames.capacity, "JSONMemberNames: a buffer of capacity slots")
    self.slots = slots
  }

  /// Calls `body` with an empty set whose storage lives on the stack for the call.
  @inlinable
  public static func with<R>(_ body: (inout JSONMemberNames) -> R) -> R {
    withUnsafeTemporaryAllocation(of: UnsafeBufferPointer<UInt8>.self, capacity: capacity) { buffer in
      var names = JSONMemberNames(slots: buffer)
      return body(&names)
    }
  }

  /// Adds `name` (the raw bytes between the quotes, without escapes); `false` when the object already
  /// had it — or may have had it (more names than are kept).
  @inlinable
  public mutating func insert(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    let n = name.count
    var h = n &* 31
    if n > 0, let p = name.baseAddress { h = h &+ Int(p[0]) &* 7 &+ Int(p[n - 1]) }
    let bit: UInt64 = 1 << UInt64(h & 63)
    if mask & bit != 0 {
      if JSONMemberNames.contains(name, in: UnsafeBufferPointer(rebasing: slots[0..<count])) { return false }
      if count == JSONMemberNames.capacity { return false }
    }
    mask |= bit
    if count < JSONMemberNames.capacity {
      slots[count] = name
      count += 1
    }
    return true
  }

  @usableFromInline
  static func contains(
    _ name: UnsafeBufferPointer<UInt8>, in kept: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>
  )
    -> Bool
  {
    let n = name.count
    for other in kept where other.count == n {
      if n == 0 { return true }
      guard let a = name.baseAddress, let b = other.baseAddress else { continue }
      if Memory.memcmp(UnsafeRawPointer(a), UnsafeRawPointer(b), n) == 0 { return true }
    }
    return false
  }
}
