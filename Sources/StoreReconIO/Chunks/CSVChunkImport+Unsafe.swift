// Safety: a region's base is the mapped file at `windowStart` (its pages made readable by `map.load` before
// any read: `fill` loads exactly what it counts, at most up to the mapping's size) or the read buffer,
// reserved before each read into it; memchr and line reads stay inside `[0, count)` of bytes filled; lines
// are valid until the next `begin(at:)` or a `fill` that grows the buffer.

import StoreReconPlatform

// A region's bytes and the line finding in them: the window of the mapped file or of the read buffer
// as a base pointer, valid while the region is being parsed (until the next `begin(at:)` or `fill`
// that grows the buffer), and the lines of it as buffers into that window.
extension CSVChunkImport {
  /// Where a region's bytes are held: read into a buffer, or where the mapped file has them (no copy).
  final class RegionBytes {
    let buffer: GrowableBuffer<UInt8>
    let map: MappedFile?
    /// The file offset of the region's first byte.
    var windowStart: Int64 = 0
    /// The mapping could not provide some bytes (the file shrank): the caller reads the region instead.
    private(set) var unmapped = false
    /// Mapped: the bytes from the region's start loaded so far (`[0, loadedEnd)`).
    private(set) var loadedEnd = 0

    init(buffer: GrowableBuffer<UInt8>, map: MappedFile?) {
      self.buffer = buffer
      self.map = map
    }

    /// Starts a region at file offset `start`.
    func begin(at start: Int64) {
      windowStart = start
      loadedEnd = 0
    }

    /// The region's first byte.
    var base: UnsafeMutablePointer<UInt8>? {
      if let map { return UnsafeMutablePointer(mutating: map.base + Int(windowStart)) }
      return buffer.base
    }

    /// The lines of the region's bytes `[start, end)`; `nil` when the region holds no bytes.
    @inline(__always)
    func lines(start: Int, end: Int) -> Lines? {
      guard let base else { return nil }
      return Lines(base: base, start: start, end: end)
    }

    /// The lines of `[start, end)` of a region that holds bytes (read on after its first lines).
    @inline(__always)
    func lines(continuingAt start: Int, end: Int) -> Lines {
      Lines(base: base.unsafelyUnwrapped, start: start, end: end)
    }

    /// Makes the `count` bytes at `offset` in the region available; how many there are (fewer at the end).
    func fill(_ file: FileByteSource, at offset: Int, count: Int) throws(InputError) -> Int {
      if let map {
        let got = max(0, min(count, map.size - Int(windowStart) - offset))
        guard map.load(Int(windowStart) + offset, got) else {
          unmapped = true
          return 0
        }
        if offset <= loadedEnd { loadedEnd = max(loadedEnd, offset + got) }
        return got
      }
      buffer.reserve(offset + count)
      return try file.read(
        at: windowStart + Int64(offset),
        into: UnsafeMutableBufferPointer(start: buffer.base.map { $0 + offset }, count: count))
    }
  }

  /// Reads the lines starting in `[from, nominalEnd)` (from must be a line start when it is the origin).
  static func readRegion(
    file: FileByteSource, from: Int64, nominalEnd: Int64, size: Int64, bytes: RegionBytes,
    lineStartKnown: Bool = true
  ) throws(InputError) -> Region {
    let windowStart = lineStartKnown ? from : from - 1
    let window = Int(nominalEnd - windowStart)
    bytes.begin(at: windowStart)
    var count = try bytes.fill(file, at: 0, count: window)
    var region = Region(base: windowStart, start: 0, end: 0, atEnd: false)
    guard let base = bytes.base, count > 0 else {
      region.atEnd = true
      return region
    }
    if !lineStartKnown {
      guard count > 1, let hit = Memory.memchr(base, 0x0A, count - 1) else { return region }
      region.start = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
    }
    var searchFrom = max(region.start, count - 1)
    var ended = windowStart + Int64(count) >= size
    var openLine = count
    while openLine > region.start && base[openLine - 1] != 0x0A { openLine -= 1 }
    while true {
      if searchFrom < count, let b = bytes.base,
        let hit = Memory.memchr(b + searchFrom, 0x0A, count - searchFrom)
      {
        count = b.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
        break
      }
      if ended || count - openLine >= LineReader.maximumLineLength { break }
      searchFrom = count
      let got = try bytes.fill(file, at: count, count: 1 << 20)
      count += got
      if got == 0 || windowStart + Int64(count) >= size { ended = true }
    }
    region.end = count
    region.atEnd = windowStart + Int64(count) >= size
    return region
  }

  /// Reads the header record from the start of the file.
  static func scanHeader(
    _ region: Region, bytes: RegionBytes, splitter: CSVSplitter, displayName: String,
    found: ([String], Int, Int) -> Void
  ) throws(InputError) {
    guard let base = bytes.base else { return }
    var lines = Lines(base: base, start: region.start, end: region.end)
    while let line = lines.next() {
      if line.count >= LineReader.maximumLineLength { return }
      if CSVReader.isBlank(line) { continue }
      var result = splitter.split(line)
      var text = line
      if result == .unterminated {
        text = splitter.startPending(line)
        while true {
          guard let more = lines.next() else {
            result = .malformed("a quoted field is not closed before the end of the file")
            break
          }
          text = splitter.appendPending(more)
          result = splitter.split(text)
          if result != .unterminated { break }
          if text.count > CSVReader.maximumRecordLength {
            result = .malformed("a quoted field is not closed within \(CSVReader.maximumRecordLength) bytes")
            break
          }
        }
      }
      guard result == .complete else {
        throw .malformed(path: displayName, reason: "the header row (line \(lines.number)) is not valid CSV")
      }
      found(splitter.strings(for: text), lines.number, lines.offset)
      return
    }
    found([], lines.number, lines.offset)
  }

  /// Lines of a buffer, numbered from 1, without their terminators.
  struct Lines {
    let base: UnsafeMutablePointer<UInt8>
    var offset: Int
    let end: Int
    var number = 0

    init(base: UnsafeMutablePointer<UInt8>, start: Int, end: Int) {
      self.base = base
      offset = start
      self.end = end
    }

    @inline(__always)
    mutating func next() -> UnsafeBufferPointer<UInt8>? {
      guard offset < end else { return nil }
      var stop = end
      var next = end
      if let hit = Memory.memchr(base + offset, 0x0A, end - offset) {
        stop = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        next = stop + 1
      }
      number += 1
      let from = offset
      offset = next
      var last = stop
      if last > from && base[last - 1] == 0x0D { last -= 1 }
      return UnsafeBufferPointer(start: base + from, count: last - from)
    }
  }

  /// Reads whole lines after `used` (the buffer's lines up to there are consumed) into the buffer,
  /// keeping the bytes before `used`: at least one more line.
  static func extend(
    file: FileByteSource, region: Region, used: Int, size: Int64, bytes: RegionBytes
  ) throws(InputError) -> (end: Int, atEnd: Bool) {
    var count = used
    var ended = region.base + Int64(count) >= size
    while !ended {
      let got = try bytes.fill(file, at: count, count: 1 << 20)
      let old = count
      count += got
      if got == 0 || region.base + Int64(count) >= size { ended = true }
      if let b = bytes.base, let hit = Memory.memchr(b + old, 0x0A, count - old) {
        count = b.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
        return (count, region.base + Int64(count) >= size)
      }
      if count - used >= LineReader.maximumLineLength { break }
    }
    return (count, ended)
  }
}
