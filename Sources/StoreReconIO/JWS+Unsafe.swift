// Safety: memchr searches only inside `compact` (each count is what is left after the previous dot); the
// payload's slice lies between the two dots found; the decoded bytes live in the caller's GrowableBuffer,
// valid until its next use.

package import StoreReconPlatform

/// Compact JWS (`header.payload.signature`, base64url parts): the payload, without checking the signature.
package enum JWS {
  /// The decoded payload bytes of a compact JWS, or `nil` when the text is not three base64url parts.
  package static func payload(_ compact: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    var dots: [Int] = []
    for (index, byte) in compact.enumerated() where byte == 0x2E {
      dots.append(index)
      if dots.count > 2 { return nil }
    }
    guard dots.count == 2, dots[0] > 0, dots[1] > dots[0] + 1 else { return nil }
    return Base64URL.decode(UnsafeBufferPointer(rebasing: compact[(dots[0] + 1)..<dots[1]]))
  }

  /// The decoded payload of a compact JWS (as ``payload(_:)-(UnsafeBufferPointer<UInt8>)``), decoded into
  /// `buffer`; valid until `buffer` is next used.
  package static func payload(_ compact: UnsafeBufferPointer<UInt8>, into buffer: GrowableBuffer<UInt8>)
    -> UnsafeBufferPointer<UInt8>?
  {
    guard let base = compact.baseAddress else { return nil }
    let n = compact.count
    guard let first = Memory.memchr(base, 0x2E, n) else { return nil }
    let one = base.distance(to: first.assumingMemoryBound(to: UInt8.self))
    guard let second = Memory.memchr(base + one + 1, 0x2E, n - one - 1) else { return nil }
    let two = base.distance(to: second.assumingMemoryBound(to: UInt8.self))
    guard Memory.memchr(base + two + 1, 0x2E, n - two - 1) == nil, one > 0, two > one + 1 else { return nil }
    return Base64URL.decode(UnsafeBufferPointer(rebasing: compact[(one + 1)..<two]), into: buffer)
  }

  /// The decoded payload of a compact JWS string; see ``payload(_:)-(UnsafeBufferPointer<UInt8>)``.
  package static func payload(_ compact: String) -> [UInt8]? {
    var compact = compact
    return compact.withUTF8 { payload($0) }
  }

  /// The payload of a compact JWS parsed as JSON.
  ///
  /// Throws a ``JSONError`` when the text is not a compact JWS or its payload is not JSON.
  package static func decodedPayload(_ compact: String) throws(JSONError) -> JSONValue {
    guard let bytes = payload(compact) else {
      throw JSONError("not a compact JWS (header.payload.signature in base64url)", at: 0)
    }
    do {
      return try JSONParser.parse(bytes)
    } catch {
      throw JSONError("JWS payload: \(error.message)", at: error.offset)
    }
  }
}
