// Safety: the input buffer is owned (allocated in init, freed in deinit); `0 <= start <= end <= input.count`
// holds, reads go into `input[0..<want]` with `want <= input.count`, and output only into the caller's buffer
// within the count returned; the entry's range is checked to lie inside the file before it is read.

import CZlib

/// The bytes of one entry of a zip archive (a CSV of Google's `salesreport_YYYYMM.zip`), streamed
/// (``ZipArchiveByteSource`` reads an archive's report entries one after another).
///
/// Streams method 0 (stored) or 8 (deflate, raw inflate). Sizes come from the central directory, so entries written with a data descriptor
/// (flag bit 3) read correctly. The CRC-32 and size are checked at the end.
package final class ZipEntryByteSource: ByteSource {
  /// The name of the entry being read, as stored in the archive.
  package let entryName: String
  private let file: FileByteSource
  private let displayName: String
  private let method: UInt16
  private let expectedCRC: UInt32
  private let expectedSize: UInt64
  private var position: Int64
  private let limit: Int64
  private let inflater: Inflater?
  private let input: UnsafeMutableBufferPointer<UInt8>
  private var start = 0
  private var end = 0
  private var crc: UInt = 0
  private var produced: UInt64 = 0
  private var finished = false

  /// Opens `entry` (from ``ZipDirectory``) of the zip archive in `file`; errors name `displayName`.
  init(file: FileByteSource, displayName: String, entry: ZipDirectory.Entry) throws(InputError) {
    self.file = file
    self.displayName = displayName
    entryName = entry.name
    guard entry.flags & 1 == 0 else {
      throw .malformed(path: displayName, reason: "zip entry '\(entry.name)' is encrypted")
    }
    guard entry.method == 0 || entry.method == 8 else {
      throw .malformed(
        path: displayName,
        reason:
          "zip entry '\(entry.name)' uses compression method \(entry.method); only 0 (stored) and 8 (deflate) are supported"
      )
    }
    method = entry.method
    expectedCRC = entry.crc
    expectedSize = entry.uncompressedSize
    guard entry.localHeaderOffset < UInt64(file.size), entry.compressedSize <= UInt64(file.size) else {
      throw .malformed(path: displayName, reason: "zip entry '\(entry.name)' runs past the end of the file")
    }
    var header = [UInt8](repeating: 0, count: 30)
    let got = try header.withUnsafeMutableBufferPointer { (buffer) throws(InputError) -> Int in
      try file.read(at: Int64(entry.localHeaderOffset), into: buffer)
    }
    guard got == 30, ZipDirectory.u32(header, 0) == 0x0403_4B50 else {
      throw .malformed(path: displayName, reason: "zip local header of '\(entry.name)' not found")
    }
    let dataStart =
      Int64(entry.localHeaderOffset) + 30 + Int64(ZipDirectory.u16(header, 26))
      + Int64(ZipDirectory.u16(header, 28))
    position = dataStart
    let streamedWithoutSize = entry.flags & 8 != 0 && entry.compressedSize == 0 && entry.method == 8
    limit = streamedWithoutSize ? file.size : dataStart + Int64(entry.compressedSize)
    guard limit <= file.size else {
      throw .malformed(path: displayName, reason: "zip entry '\(entry.name)' runs past the end of the file")
    }
    inflater =
      entry.method == 8
      ? try Inflater(windowBits: -15, displayName: displayName, what: "zip deflate data") : nil
    input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: entry.method == 8 ? 256 * 1024 : 8)
  }

  deinit { input.deallocate() }

  /// Reads the next bytes of the entry; `0` at the end (after the CRC check).
  package func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(InputError) -> Int {
    guard !finished, buffer.count > 0 else { return 0 }
    let n: Int
    if let inflater {
      n = try inflate(inflater, into: buffer)
    } else {
      let want = Int(min(Int64(buffer.count), limit - position))
      n =
        want > 0
        ? try file.read(at: position, into: UnsafeMutableBufferPointer(rebasing: buffer[0..<want])) : 0
      position += Int64(n)
      if n == 0 && position < limit {
        throw .malformed(path: displayName, reason: "zip entry '\(entryName)' ends early (truncated file?)")
      }
    }
    if n > 0, let base = buffer.baseAddress {
      crc = CZlib.crc32(crc, base, UInt32(n))
      produced += UInt64(n)
      return n
    }
    try finish()
    return 0
  }

  private func inflate(_ inflater: Inflater, into buffer: UnsafeMutableBufferPointer<UInt8>)
    throws(InputError) -> Int
  {
    while true {
      if start == end {
        let want = Int(min(Int64(input.count), limit - position))
        if want > 0 {
          let got = try file.read(at: position, into: UnsafeMutableBufferPointer(rebasing: input[0..<want]))
          position += Int64(got)
          start = 0
          end = got
        }
      }
      let chunk = UnsafeBufferPointer(rebasing: input[start..<end])
      let (consumed, produced, ended) = try inflater.inflate(chunk, into: buffer)
      start += consumed
      if ended {
        position = limit
        start = end
        return produced
      }
      if produced > 0 { return produced }
      if consumed == 0 && start == end && position >= limit {
        throw .malformed(path: displayName, reason: "zip entry '\(entryName)' ends early (truncated file?)")
      }
    }
  }

  private func finish() throws(InputError) {
    finished = true
    guard UInt32(truncatingIfNeeded: crc) == expectedCRC else {
      throw .malformed(path: displayName, reason: "zip entry '\(entryName)' fails its CRC-32 check")
    }
    guard produced == expectedSize || (expectedSize == 0 && method == 8) else {
      throw .malformed(
        path: displayName,
        reason: "zip entry '\(entryName)' has \(produced) bytes, its directory says \(expectedSize)")
    }
  }
}
