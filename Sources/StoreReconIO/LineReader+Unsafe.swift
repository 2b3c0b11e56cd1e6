// Safety: the buffer is owned (freed in deinit, or when a bigger one replaces it); `0 <= lineStart <=
// scanFrom <= end <= buffer.count` holds after every step; memchr scans only `[scanFrom, end)`; a line handed
// out is valid until the next call, which may move or replace the buffer.

import StoreReconPlatform

/// Splits a byte stream into lines, reading it in large chunks.
///
/// A line is handed out without its terminator (`\n` or `\r\n`) as a pointer into the reader's own
/// buffer, valid until the next call. Lines may span chunk boundaries; the buffer grows only for a
/// line longer than a chunk (up to ``maximumLineLength``). A last line without a terminator counts.
package final class LineReader {
  /// The longest line accepted; a longer one makes the file malformed (it is likely not text).
  package static let maximumLineLength = 64 * 1024 * 1024
  /// The fewest bytes the reader asks its source for (``ByteSource/read(into:)`` needs 8).
  static let minimumRead = 8

  /// The 1-based number of the line last returned by ``next()``; 0 before the first.
  package private(set) var lineNumber = 0
  private let source: any ByteSource
  private let displayName: String
  private var buffer: UnsafeMutableBufferPointer<UInt8>
  private var lineStart = 0
  private var scanFrom = 0
  private var end = 0
  private var ended = false
  /// Bytes the source gave so far (for the read's progress, ``ReadProgress``).
  private var consumed: Int64 = 0

  /// Reads lines from `source`; errors name `displayName`.
  package init(source: any ByteSource, displayName: String, chunkSize: Int = 1 << 20) {
    self.source = source
    self.displayName = displayName
    buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(chunkSize, 64))
  }

  /// Opens `path` through ``InputBytes/open(path:displayName:)`` and reads its lines.
  package convenience init(path: String, displayName: String) throws(InputError) {
    self.init(source: try InputBytes.open(path: path, displayName: displayName), displayName: displayName)
  }

  deinit { buffer.deallocate() }

  /// The next line without its terminator, or `nil` at the end. Valid until the next call.
  package func next() throws(InputError) -> UnsafeBufferPointer<UInt8>? {
    while true {
      if scanFrom < end, let base = buffer.baseAddress,
        let hit = Memory.memchr(base + scanFrom, 0x0A, end - scanFrom)
      {
        let newline = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        return take(upTo: newline, next: newline + 1)
      }
      if ended {
        guard lineStart < end else { return nil }
        return take(upTo: end, next: end)
      }
      try fill()
    }
  }

  /// Calls `body` with every line and its 1-based number.
  package func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) throws(InputError) {
    while let line = try next() { body(line, lineNumber) }
  }

  private func take(upTo stop: Int, next: Int) -> UnsafeBufferPointer<UInt8> {
    var last = stop
    if last > lineStart && buffer[last - 1] == 0x0D { last -= 1 }
    let line = UnsafeBufferPointer(rebasing: buffer[lineStart..<last])
    lineStart = next
    scanFrom = next
    lineNumber += 1
    return line
  }

  /// Keeps the unfinished line, making room after it, and reads the next chunk.
  private func fill() throws(InputError) {
    let pending = end - lineStart
    if lineStart > 0, let base = buffer.baseAddress {
      if pending > 0 { Memory.memmove(base, base + lineStart, pending) }
      lineStart = 0
      end = pending
    }
    // A source fills at least 8 bytes (``ByteSource/read(into:)``): a UTF-16 source given fewer
    // returns 0, which would end the file in the middle of a line.
    if buffer.count - end < LineReader.minimumRead || end >= LineReader.maximumLineLength {
      guard end < LineReader.maximumLineLength else {
        throw .malformed(
          path: displayName,
          reason: "line \(lineNumber + 1) is longer than \(LineReader.maximumLineLength) bytes")
      }
      let bigger = UnsafeMutableBufferPointer<UInt8>.allocate(
        capacity: min(buffer.count * 2, LineReader.maximumLineLength + LineReader.minimumRead))
      if let to = bigger.baseAddress, let from = buffer.baseAddress { to.update(from: from, count: end) }
      buffer.deallocate()
      buffer = bigger
    }
    scanFrom = end
    let n = try source.read(into: UnsafeMutableBufferPointer(rebasing: buffer[end...]))
    if n == 0 { ended = true }
    end += n
    consumed += Int64(n)
    ReadProgress.advance(bytes: consumed)
  }
}
