// Safety: an implementation writes only into the caller's `buffer`, within its count, during the call, and
// keeps no pointer to it.

/// A stream of bytes read in chunks: a file, a decompressed file, or a re-encoded file.
///
/// Implementations keep a bounded amount of memory, whatever the size of the input.
package protocol ByteSource: AnyObject {
  /// Fills the start of `buffer` with the next bytes and returns how many; `0` means the end.
  ///
  /// `buffer` must hold at least 8 bytes. A return value below `buffer.count` does not mean the end.
  func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(InputError) -> Int
}
