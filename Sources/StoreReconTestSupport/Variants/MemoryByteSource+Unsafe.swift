// Safety: copies `min(buffer.count, bytes.count - offset)` bytes, inside both buffers; `offset <=
// bytes.count` is a precondition (debug and release).

package import StoreReconIO

/// Bytes held in memory, read as a file is: for readers fed a generated file without writing it.
package final class MemoryByteSource: ByteSource {
  private let bytes: [UInt8]
  private var offset = 0

  /// A source of `bytes`.
  package init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Copies the next bytes into `buffer`; `0` at the end.
  package func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(InputError) -> Int {
    precondition(offset <= bytes.count, "read past the end")
    let n = min(buffer.count, bytes.count - offset)
    guard n > 0, let target = buffer.baseAddress else { return 0 }
    bytes.withUnsafeBufferPointer { source in
      if let from = source.baseAddress { target.update(from: from + offset, count: n) }
    }
    offset += n
    return n
  }
}
