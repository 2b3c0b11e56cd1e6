// Safety: a chunk's bytes are the mapped file's pages after `map.load` succeeded for exactly the counted
// range (released only after the chunk's lines are packed), or the worker's own buffer reserved before each
// read into it; memchr scans only `[from, count)`; a line is a buffer into that window, valid during `pack`
// only (the packer copies what a record keeps).

import StoreReconPlatform
package import StoreReconCore

/// Packs one JSON line into a batch; each worker thread has its own packer (caches), made from the
/// read's settings (shared by all its packers: `Sendable`).
package protocol JSONLinePacker {
  associatedtype Settings: Sendable = Void
  init(settings: Settings)
  /// Adds the record of `line` (trimmed, not blank) to `batch`, or says why the line is rejected.
  mutating func pack(_ line: UnsafeBufferPointer<UInt8>, into batch: RecordBatch) throws(RowRejection)
  /// Makes room in `batch` for the records of about `bytes` bytes of lines (no copying as it grows).
  func reserve(_ batch: RecordBatch, bytes: Int)
}

extension JSONLinePacker {
  package func reserve(_ batch: RecordBatch, bytes: Int) {}
}

/// A packer that needs no settings.
package protocol PlainJSONLinePacker: JSONLinePacker where Settings == Void {
  init()
}

extension PlainJSONLinePacker {
  package init(settings: Void) { self.init() }
}

// A chunk's bytes and the line finding in them: the window of the mapped file or of the read buffer
// as a base pointer, valid while the chunk is parsed, and each line handed to the packer as a buffer
// into that window (valid during the call).
extension JSONLinesBatchImport {
  /// Reads and parses chunk `k`: the lines that start in `[start + k·size, start + (k+1)·size)`.
  static func parse<P: JSONLinePacker>(
    _ packer: P.Type, settings: P.Settings, file: FileByteSource, chunk k: Int, start: Int64, size: Int64,
    chunkBytes: Int, buffer: GrowableBuffer<UInt8>, keepPages: Bool = false
  ) -> Chunk {
    let nominalStart = start + Int64(k) * Int64(chunkBytes)
    let nominalEnd = min(size, nominalStart + Int64(chunkBytes))
    // Read from the byte before the chunk (to see whether a line starts at its first byte).
    let windowStart = nominalStart > start ? nominalStart - 1 : start
    if let map = file.mapping, windowStart < Int64(map.size),
      let chunk = parseMapped(
        packer, settings: settings, map: map, windowStart: Int(windowStart), nominalStart: nominalStart,
        start: start,
        nominalEnd: Int(nominalEnd), size: Int(size), keepPages: keepPages)
    {
      return chunk
    }
    let chunk = Chunk()
    do throws(InputError) {
      let window = Int(nominalEnd - windowStart)
      buffer.reserve(window)
      var count = try file.read(
        at: windowStart, into: UnsafeMutableBufferPointer(start: buffer.base, count: window))
      guard let base = buffer.base, count > 0 else { return chunk }
      // The first line that starts in the chunk.
      var s = 0
      if nominalStart > start {
        guard count > 1, let hit = Memory.memchr(base, 0x0A, count - 1) else { return chunk }
        s = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
      }
      // Extend past the chunk to the end of its last line.
      var searchFrom = max(s, count - 1)
      var ended = windowStart + Int64(count) >= size
      var openLine = count
      while openLine > s && base[openLine - 1] != 0x0A { openLine -= 1 }
      while true {
        if searchFrom < count, let b = buffer.base,
          let hit = Memory.memchr(b + searchFrom, 0x0A, count - searchFrom)
        {
          count = b.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
          break
        }
        if ended || count - openLine >= LineReader.maximumLineLength { break }
        let more = 1 << 20
        buffer.reserve(count + more)
        searchFrom = count
        let got = try file.read(
          at: windowStart + Int64(count),
          into: UnsafeMutableBufferPointer(start: buffer.base.map { $0 + count }, count: more))
        count += got
        if got == 0 || windowStart + Int64(count) >= size { ended = true }
      }
      var packer = P(settings: settings)
      packer.reserve(chunk.batch, bytes: count - s)
      parseLines(UnsafeBufferPointer(start: buffer.base, count: count), from: s, packer: &packer, into: chunk)
    } catch {
      chunk.error = error
    }
    return chunk
  }

  /// ``parse(_:file:chunk:start:size:chunkBytes:buffer:)`` on the mapped file: the same bytes, found the
  /// same way, without copying them; `nil` when the pages cannot be mapped (then the chunk is read).
  static func parseMapped<P: JSONLinePacker>(
    _ packer: P.Type, settings: P.Settings, map: MappedFile, windowStart: Int, nominalStart: Int64,
    start: Int64, nominalEnd: Int, size: Int, keepPages: Bool = false
  ) -> Chunk? {
    let chunk = Chunk()
    let available = min(size, map.size) - windowStart
    var count = min(nominalEnd - windowStart, available)
    guard count > 0 else { return chunk }
    guard map.load(windowStart, count) else { return nil }
    let base = map.base + windowStart
    var s = 0
    if nominalStart > start {
      guard count > 1, let hit = Memory.memchr(base, 0x0A, count - 1) else {
        if !keepPages { map.release(windowStart, count) }
        return chunk
      }
      s = base.distance(to: UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))) + 1
    }
    // Extend past the chunk to the end of its last line (as the reading path does, 1 MiB at a time).
    var searchFrom = max(s, count - 1)
    var ended = windowStart + count >= size
    var openLine = count
    while openLine > s && base[openLine - 1] != 0x0A { openLine -= 1 }
    while true {
      if searchFrom < count, let hit = Memory.memchr(base + searchFrom, 0x0A, count - searchFrom) {
        count = base.distance(to: UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))) + 1
        break
      }
      if ended || count - openLine >= LineReader.maximumLineLength { break }
      let got = min(1 << 20, available - count)
      guard map.load(windowStart + count, got) else { return nil }
      searchFrom = count
      count += got
      if got == 0 || windowStart + count >= size { ended = true }
    }
    var packer = P(settings: settings)
    packer.reserve(chunk.batch, bytes: count - s)
    parseLines(UnsafeBufferPointer(start: base, count: count), from: s, packer: &packer, into: chunk)
    // The window and its extension were loaded: the chunk's own bytes (up to the nominal end) at least.
    chunk.mapped = windowStart + count >= nominalEnd
    if !keepPages { map.release(windowStart, count) }  // else the checksum drops them once hashed
    return chunk
  }

  /// Splits `bytes[from...]` into lines and packs each.
  static func parseLines<P: JSONLinePacker>(
    _ bytes: UnsafeBufferPointer<UInt8>, from: Int, packer: inout P, into chunk: Chunk
  ) {
    guard let base = bytes.baseAddress else { return }
    var lineStart = from
    let end = bytes.count
    while lineStart < end {
      var stop = end
      var next = end
      if let hit = Memory.memchr(base + lineStart, 0x0A, end - lineStart) {
        stop = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        next = stop + 1
      }
      chunk.lines += 1
      if stop - lineStart >= LineReader.maximumLineLength {
        chunk.tooLong = chunk.lines
        return
      }
      var last = stop
      if last > lineStart && bytes[last - 1] == 0x0D { last -= 1 }
      packLine(
        UnsafeBufferPointer(rebasing: bytes[lineStart..<last]), number: chunk.lines, packer: &packer, chunk)
      lineStart = next
    }
  }

  @inline(__always)
  static func packLine<P: JSONLinePacker>(
    _ line: UnsafeBufferPointer<UInt8>, number: Int, packer: inout P, _ chunk: Chunk
  ) {
    let text = JSONLinesImport.trimmed(line)
    if text.isEmpty { return }
    do throws(RowRejection) {
      if let problem = UTF8Validation.problem(text) { throw RowRejection(problem.reason) }
      try packer.pack(text, into: chunk.batch)
      chunk.batch.noteLines(number)
    } catch {
      chunk.rejects.append((number, error.reason, RawText.truncated(text)))
    }
  }

  /// A compressed or UTF-16 file: one core, through ``LineReader``.
  static func streaming<P: JSONLinePacker>(
    _ packer: P.Type, settings: P.Settings, path: String, displayName: String, rejects: any RejectSink,
    into builder: LedgerBuilder
  ) throws(InputError) -> PackedImport {
    let lines = try LineReader(path: path, displayName: displayName)
    var result = Merger(displayName: displayName, rejects: rejects, builder: builder)
    var packer = P(settings: settings)
    var chunk = Chunk()
    var pending: InputError?
    while true {
      let line: UnsafeBufferPointer<UInt8>?
      do {
        line = try lines.next()
      } catch {
        pending = error
        break
      }
      guard let line else { break }
      chunk.lines += 1
      packLine(line, number: chunk.lines, packer: &packer, chunk)
      if chunk.batch.records.count + chunk.batch.statuses.count >= 65_536 {
        try result.merge(chunk)
        chunk = Chunk()
      }
    }
    chunk.error = pending
    try result.merge(chunk)
    return result.finish()
  }
}
