// Safety: the bytes given are read within the call only (interned by the pools, which copy them, and
// decoded into a `String` when new), never kept; no precondition beyond the buffer being valid.

extension ProductNames {
  /// The number of the product name spelled by `bytes`.
  @inline(__always)
  package func name(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    let id = namePool.intern(bytes)
    if Int(id) == names.count { names.append(String(decoding: bytes, as: UTF8.self)) }
    return id
  }

  /// The number of the raw product type spelled by `bytes`.
  @inline(__always)
  package func type(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    let id = typePool.intern(bytes)
    if Int(id) == types.count { types.append(String(decoding: bytes, as: UTF8.self)) }
    return id
  }
}
