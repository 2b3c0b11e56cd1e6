// Safety: the z_stream lives at one heap address for the inflater's life (zlib points into it), is ended and
// freed once; zlib gets `next_in`/`next_out` only for one call, with counts no larger than the buffers given,
// and the pointers are cleared after it.

import CZlib

/// One zlib inflate state, owned here and ended exactly once.
///
/// `z_stream` points back at itself inside zlib, so it lives at a fixed heap address.
final class Inflater {
  private let stream: UnsafeMutablePointer<z_stream>
  private let displayName: String
  private let what: String

  /// Starts an inflater; `windowBits` 15+32 reads zlib or gzip, -15 reads raw deflate (zip).
  init(windowBits: Int32, displayName: String, what: String) throws(InputError) {
    self.displayName = displayName
    self.what = what
    stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let status = storerecon_inflateInit2(stream, windowBits)
    guard status == Z_OK else {
      stream.deinitialize(count: 1)
      stream.deallocate()
      throw .unreadable(path: displayName, reason: "zlib could not start (\(status))")
    }
  }

  deinit {
    inflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  /// Starts a new stream with the same settings (the next member of a concatenated gzip file).
  func reset() {
    inflateReset(stream)
  }

  /// Inflates as much of `input` into `output` as fits.
  ///
  /// Returns the input bytes consumed, the output bytes produced, and whether the stream ended.
  func inflate(
    _ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>
  ) throws(InputError) -> (consumed: Int, produced: Int, ended: Bool) {
    guard let outBase = output.baseAddress, output.count > 0 else { return (0, 0, false) }
    let inBase = input.baseAddress.map { UnsafeMutablePointer(mutating: $0) }
    stream.pointee.next_in = inBase
    stream.pointee.avail_in = UInt32(clamping: input.count)
    stream.pointee.next_out = outBase
    stream.pointee.avail_out = UInt32(clamping: output.count)
    let availIn = stream.pointee.avail_in
    let availOut = stream.pointee.avail_out
    let status = CZlib.inflate(stream, Z_NO_FLUSH)
    let consumed = Int(availIn - stream.pointee.avail_in)
    let produced = Int(availOut - stream.pointee.avail_out)
    stream.pointee.next_in = nil
    stream.pointee.next_out = nil
    switch status {
    case Z_OK, Z_BUF_ERROR:
      return (consumed, produced, false)
    case Z_STREAM_END:
      return (consumed, produced, true)
    case Z_NEED_DICT:
      throw .malformed(path: displayName, reason: "\(what) needs a preset dictionary")
    case Z_MEM_ERROR:
      throw .unreadable(path: displayName, reason: "out of memory while inflating \(what)")
    default:
      var detail = "invalid compressed data"
      if let message = stream.pointee.msg { detail = String(cString: message) }
      throw .malformed(path: displayName, reason: "bad \(what): \(detail)")
    }
  }
}
