// Safety: the source writes into the array's own storage, inside the closure, through a slice from `filled`
// to its end; the array holds `limit + 8` bytes and a slice under the 8 bytes a ByteSource needs is not read
// into.

extension InputBytes {
  /// The first `limit` bytes of `path`'s text (after decompression and byte-order-mark handling), or
  /// fewer when the text is shorter: what is needed to tell what kind of file it is.
  package static func prefix(path: String, displayName: String? = nil, limit: Int = 64 * 1024)
    throws(InputError) -> [UInt8]
  {
    let source = try open(path: path, displayName: displayName)
    var bytes = [UInt8](repeating: 0, count: limit + 8)
    var filled = 0
    while filled < limit {
      let got = try bytes.withUnsafeMutableBufferPointer { (buffer) throws(InputError) -> Int in
        let rest = UnsafeMutableBufferPointer(rebasing: buffer[filled..<buffer.count])
        return rest.count < 8 ? 0 : try source.read(into: rest)
      }
      if got == 0 { break }
      filled += got
    }
    return Array(bytes[0..<min(filled, limit)])
  }
}
