// Safety: the bytes are read within the caller's buffer, only for the length of the call (packed
// or copied into a String, never kept): no precondition beyond the buffer being valid.

extension PlayOrderKey {
  /// The key of the order id `bytes` (UTF-8).
  package init(bytes: UnsafeBufferPointer<UInt8>) {
    if let packed = PackedID.packed(bytes) {
      self.init(packed: packed, text: nil)
    } else {
      self.init(packed: .absent, text: String(decoding: bytes, as: UTF8.self))
    }
  }
}
