// Safety: `read(into:)` writes `buffer[0..<n]` with `n` at most `buffer.count`, within the call, and
// keeps no pointer.

@testable import StoreReconIO

extension AppRowSourceTests {
  /// Bytes from memory, handed out a few at a time.
  final class MemorySource: ByteSource {
    let bytes: [UInt8]
    var offset = 0
    init(_ text: String) { bytes = Array(text.utf8) }
    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(InputError) -> Int {
      let n = min(7, buffer.count, bytes.count - offset)
      for i in 0..<n { buffer[i] = bytes[offset + i] }
      offset += n
      return n
    }
  }
}
