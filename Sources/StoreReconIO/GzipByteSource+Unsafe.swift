// Safety: the input buffer is owned (allocated in init, freed in deinit); `0 <= start <= end <= input.count`
// holds after every step, so zlib reads only `input[start..<end]`, refills write only into `input[end...]`
// and the move to the front stays inside it; output goes only into the caller's buffer.

/// The decompressed bytes of a gzip file, inflated in a streaming fashion.
///
/// Concatenated gzip members (what `cat a.gz b.gz` makes) are read one after another. Zero bytes
/// after the last member (block padding) are ignored; anything else there is malformed.
package final class GzipByteSource: ByteSource {
  private let file: any ByteSource
  private let displayName: String
  private let inflater: Inflater
  private let input: UnsafeMutableBufferPointer<UInt8>
  private var start = 0
  private var end = 0
  private var inputEnded = false
  private var finished = false
  /// Compressed bytes read from the file and consumed so far: where damage was found.
  package private(set) var compressedOffset: Int64 = 0

  /// Reads gzip data from `file`; errors name `displayName`.
  package init(file: any ByteSource, displayName: String, bufferSize: Int = 256 * 1024) throws(InputError) {
    self.file = file
    self.displayName = displayName
    inflater = try Inflater(windowBits: 15 + 32, displayName: displayName, what: "gzip data")
    input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bufferSize, 64))
  }

  deinit { input.deallocate() }

  /// Reads the next decompressed bytes; `0` at the end.
  package func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(InputError) -> Int {
    while !finished {
      if start == end && !inputEnded { try refill() }
      let chunk = UnsafeBufferPointer(rebasing: input[start..<end])
      let (consumed, produced, ended) = try inflater.inflate(chunk, into: buffer)
      start += consumed
      compressedOffset += Int64(consumed)
      if ended {
        try nextMember()
        if produced > 0 { return produced }
        continue
      }
      if produced > 0 { return produced }
      if consumed == 0 {
        let waiting = end - start
        if waiting > 0 { try refill() }
        if end - start == waiting && (inputEnded || waiting > 0) {
          throw .malformed(path: displayName, reason: "gzip data ends early (truncated file?)")
        }
      }
    }
    return 0
  }

  /// After a member ended: start the next member, or check that only zero padding follows.
  private func nextMember() throws(InputError) {
    while end - start < 2 && !inputEnded { try refill() }
    if end - start >= 2 && input[start] == 0x1F && input[start + 1] == 0x8B {
      inflater.reset()
      return
    }
    while true {
      for index in start..<end where input[index] != 0 {
        compressedOffset += Int64(index - start)
        throw .malformed(path: displayName, reason: "unexpected data after the end of the gzip stream")
      }
      compressedOffset += Int64(end - start)
      start = end
      if inputEnded { break }
      try refill()
    }
    finished = true
  }

  /// Moves unread input to the front and reads more after it.
  private func refill() throws(InputError) {
    if start > 0 {
      let remaining = end - start
      if remaining > 0, let base = input.baseAddress {
        base.update(from: base + start, count: remaining)
      }
      start = 0
      end = remaining
    }
    guard end < input.count else { return }
    let n = try file.read(into: UnsafeMutableBufferPointer(rebasing: input[end...]))
    if n == 0 { inputEnded = true }
    end += n
  }
}
