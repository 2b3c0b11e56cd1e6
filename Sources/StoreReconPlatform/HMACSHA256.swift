/// HMAC-SHA-256 (RFC 2104) over ``SHA256Digest``: the check a record the run keeps for itself carries,
/// so that an edit by anyone who does not hold the key is detected.
package enum HMACSHA256 {
  /// The 32-byte HMAC-SHA-256 of `message` under `key` (a key longer than 64 bytes is hashed first).
  package static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
    var block = key.count > 64 ? SHA256Digest.bytes(of: key) : key
    block += [UInt8](repeating: 0, count: 64 - block.count)
    var inner = SHA256Digest()
    inner.update(block.map { $0 ^ 0x36 })
    inner.update(message)
    let innerHash = inner.finalizeBytes()
    var outer = SHA256Digest()
    outer.update(block.map { $0 ^ 0x5C })
    outer.update(innerHash)
    return outer.finalizeBytes()
  }
}
