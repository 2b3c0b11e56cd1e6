import StoreReconPlatform
package import StoreReconCore

/// Packs the records of one chunk of a CSV file; each worker thread has its own packer.
package protocol CSVRecordPacker {
  /// What one chunk of records becomes (a batch of ledger records, a list of app rows).
  associatedtype Output
  /// The columns the packer reads, found once in the header row.
  associatedtype Columns
  /// What the run hands every packer of a read (the store readers: the ``StoreTimeWindow`` of T).
  associatedtype Settings: Sendable = Void
  /// Finds the columns in the header row (throws ``InputError/missingColumns(file:_:)``).
  static func columns(_ header: CSVChunkImport.Header) throws(InputError) -> Columns
  /// Finds the columns in the header row, with the read's settings; by default ``columns(_:)``.
  static func columns(_ header: CSVChunkImport.Header, settings: Settings) throws(InputError) -> Columns
  /// A packer for one chunk.
  init(columns: Columns)
  /// An empty output for one chunk.
  func makeOutput() -> Output
  /// Packs one record (split, not malformed, with as many fields as the header), or says why it is rejected.
  mutating func pack(_ record: CSVRecord, into output: inout Output) throws(RowRejection)
  /// Makes room in `output` for the records of about `bytes` bytes of lines (no copying as it grows).
  func reserve(_ output: inout Output, bytes: Int)
  /// What ``pack(_:into:)`` just added to `output` came from line `line` of its chunk, and the chunk's
  /// lines follow `offset` lines of the file: a ledger batch keeps them (the duplicates report names
  /// lines); other outputs ignore them. Resolved when the packer is compiled, no cast per record.
  static func noteLine(_ line: Int, in output: Output)
  static func noteLineOffset(_ offset: Int, in output: Output)
}

extension CSVRecordPacker {
  package static func columns(_ header: CSVChunkImport.Header, settings: Settings) throws(InputError)
    -> Columns
  {
    try columns(header)
  }
  package func reserve(_ output: inout Output, bytes: Int) {}
  package static func noteLine(_ line: Int, in output: Output) {}
  package static func noteLineOffset(_ offset: Int, in output: Output) {}
}

extension CSVRecordPacker where Output == RecordBatch {
  package static func noteLine(_ line: Int, in output: Output) { output.noteLines(line) }
  package static func noteLineOffset(_ offset: Int, in output: Output) { output.lineOffset = offset }
}

/// Reads a CSV file in chunks of whole lines on all cores, with exactly the records, rejects and line
/// numbers that ``CSVReader`` gives on one core.
///
/// The header row is read first; the rest of a plain UTF-8 file is cut into chunks at line starts and the
/// chunks of a round are split and packed at once. A record whose quoted field runs past its chunk's end
/// is read to its end by that chunk, and the chunks after it in the round are read again from there (a
/// line break inside quotes is rare; for the stores' exports it never happens). Compressed and UTF-16
/// files are read through ``CSVReader`` on one core.
package enum CSVChunkImport {
  /// Bytes per chunk.
  package static let chunkSize = 4 << 20

  /// The header row: its names and how to find a column by name (as ``CSVReader`` does).
  package struct Header {
    let names: [String]
    package let displayName: String
    private let lookup: [String: Int]

    /// A header row read at `line`; throws when it names one column twice, as ``CSVReader`` does.
    init(names: [String], displayName: String, line: Int) throws(InputError) {
      self.names = names
      self.displayName = displayName
      lookup = try CSVReader.columnLookup(names, displayName: displayName, line: line)
    }

    /// The index of the column named `name` (ignoring case and surrounding spaces), or `nil`.
    func columnIndex(_ name: String) -> Int? { lookup[CSVReader.key(name)] }

    /// The index of the first of `names` the header has, or `nil`.
    package func columnIndex(anyOf names: [String]) -> Int? {
      for name in names {
        if let index = columnIndex(name) { return index }
      }
      return nil
    }

    /// The indexes of `names`; throws ``InputError/missingColumns(file:_:)`` listing every one missing.
    package func requireColumns(_ names: [String]) throws(InputError) -> [Int] {
      var indexes: [Int] = []
      var missing: [String] = []
      for name in names {
        if let index = columnIndex(name) { indexes.append(index) } else { missing.append(name) }
      }
      guard missing.isEmpty else { throw .missingColumns(file: displayName, missing) }
      return indexes
    }
  }

  /// What one chunk produced.
  final class Chunk<Output>: @unchecked Sendable {
    var output: Output
    /// Physical lines the chunk read, and where its last one ends (a byte offset in the file).
    var lines = 0
    var end: Int64 = 0
    var accepted = 0
    var rejects: [(line: Int, reason: String, raw: String)] = []
    var tooLong: Int?
    var error: InputError?
    /// The chunk read lines past its own to finish a record with a line break inside quotes.
    var extended = false
    /// The chunk's bytes, up to its nominal end, were parsed where the mapped file has them (loaded).
    var mapped = false

    init(output: Output) { self.output = output }
  }

  /// Imports `path` with `P`, handing each chunk's output to `merge` in file order.
  ///
  /// - Returns: the counts.
  static func run<P: CSVRecordPacker>(
    _ packer: P.Type, path: String, displayName: String, rejects: any RejectSink,
    chunkBytes: Int = chunkSize, threads: Int = Parallel.cores, merge: (P.Output) -> Void
  ) throws(InputError) -> InputCounts where P.Settings == Void {
    try run(
      packer, path: path, displayName: displayName, rejects: rejects, chunkBytes: chunkBytes, threads: threads
    ) { output, _ in merge(output) }
  }

  /// Imports `path` with `P`, handing each chunk's output to `merge` in file order with the number of
  /// the lines before the chunk (record lines in the output are counted from the chunk's start).
  static func run<P: CSVRecordPacker>(
    _ packer: P.Type, path: String, displayName: String, rejects: any RejectSink,
    chunkBytes: Int = chunkSize, threads: Int = Parallel.cores, merge: (P.Output, Int) -> Void
  ) throws(InputError) -> InputCounts where P.Settings == Void {
    let schedule = ReadSchedule(workers: threads)
    let source = Source<P>(path: path, displayName: displayName, chunkBytes: chunkBytes)
    schedule.add(source)
    return try source.consume(rejects: rejects, merge: merge)
  }

  /// A CSV file read through a ``ReadSchedule``: the header is read when the schedule opens it, the
  /// rest is cut into chunks at fixed offsets that the schedule's workers split and pack (ahead, while
  /// earlier inputs are merged); ``consume(rejects:merge:)`` hands their outputs over in file order.
  ///
  /// A record whose quoted field runs past its chunk's end is read to its end by that chunk; the chunks
  /// after it (which started inside that record) are dropped and the rest of the file is read from
  /// there on the consuming thread, one chunk at a time.
  package final class Source<P: CSVRecordPacker>: ScheduledRead, @unchecked Sendable {
    package let path: String
    let displayName: String
    let chunkBytes: Int
    let settings: P.Settings
    private var file: FileByteSource?
    private var size: Int64 = 0
    private var failure: InputError?
    private var needsStreaming = false
    private var columns: P.Columns?
    private var expected = 0
    /// Where the records start (after the header) and the lines before them.
    private var origin: Int64 = 0
    private var headerLines = 0
    private var tickets: [ReadTicket<Chunk<P.Output>>?] = []
    /// Hashes the file as its chunks are parsed (``ScheduledRead/checksums``, mapped plain files).
    private var hasher: ChunkHasher?

    /// The read of `path` with the packers' `settings`; with `checksums`, also its size and SHA-256
    /// (``ScheduledRead/fileChecksum()``).
    package init(
      path: String, displayName: String, settings: P.Settings, chunkBytes: Int = CSVChunkImport.chunkSize,
      checksums: Bool = false
    ) {
      self.path = path
      self.displayName = displayName
      self.settings = settings
      self.chunkBytes = max(1, chunkBytes)
      super.init(checksums: checksums)
    }

    override func open() {
      do throws(InputError) {
        let file = try FileByteSource(path: path, displayName: displayName)
        let container = try InputBytes.sniff(file, path: path, displayName: displayName)
        var start: Int64 = 0
        var plain = container == .plain
        if plain {
          let head = try file.bytes(at: 0, count: 3)
          let got = head.count
          if got >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF {
            start = 3
          } else if got >= 2
            && ((head[0] == 0xFF && head[1] == 0xFE) || (head[0] == 0xFE && head[1] == 0xFF))
          {
            plain = false
          }
        }
        guard plain else {
          needsStreaming = true
          checksumInBackground(path)
          return
        }
        let size = file.size
        // The header row: the first record (blank lines skipped), read like any other.
        let head = RegionBytes(buffer: GrowableBuffer<UInt8>(), map: nil)
        let splitter = CSVSplitter()
        var header: [String] = []
        var position = start
        var lineBase = 0
        // At least a whole record's worth, so that a header with quoted line breaks is read whole however
        // small the chunks (as CSVReader reads it).
        let headerBytes = Int64(max(chunkBytes, CSVReader.maximumRecordLength + 1))
        let first = try readRegion(
          file: file, from: start, nominalEnd: min(size, start + headerBytes), size: size, bytes: head)
        let displayName = self.displayName
        try scanHeader(first, bytes: head, splitter: splitter, displayName: displayName) {
          names, lines, offset in
          header = names
          lineBase = lines
          position = start + Int64(offset)
        }
        if let tooLong = first.tooLongLine, header.isEmpty {
          throw .malformed(
            path: displayName, reason: "line \(tooLong) is longer than \(LineReader.maximumLineLength) bytes")
        }
        columns = try P.columns(
          try Header(names: header, displayName: displayName, line: lineBase), settings: settings)
        expected = header.count
        file.mapWhole()
        self.file = file
        self.size = size
        origin = position
        headerLines = lineBase
        taskCount = size > position ? Int((size - position + Int64(chunkBytes) - 1) / Int64(chunkBytes)) : 0
        if checksums {
          if let map = file.mapping {
            let hasher = ChunkHasher(map: map)
            hasher.offer(0, Int(position))
            self.hasher = hasher
          } else {
            checksumInBackground(path)
          }
        }
      } catch {
        failure = error
        checksumInBackground(path)
      }
    }

    override func submit(_ k: Int, to pool: ReadPool) {
      guard let file, let columns else { return }
      let expected = self.expected
      let origin = self.origin
      let size = self.size
      let chunkBytes = self.chunkBytes
      let hasher = self.hasher
      tickets.append(
        pool.submit { [self] buffer in
          let packer = P(columns: columns)
          guard gate.enter() else { return Chunk(output: packer.makeOutput()) }
          defer { gate.leave() }
          let chunk = parseChunk(
            packer, expected: expected, file: file, origin: origin, part: k, size: size,
            chunkBytes: chunkBytes, buffer: buffer, keepPages: hasher != nil)
          if let hasher {
            let from = chunkStart(origin: origin, part: k, chunkBytes: chunkBytes)
            hasher.offer(
              Int(from), Int(nominalEnd(origin: origin, part: k, chunkBytes: chunkBytes, size: size)),
              loaded: chunk.mapped)
          }
          return chunk
        })
    }

    /// Hands the chunks' outputs to `merge` in file order, with the number of the lines before each
    /// (or reads a compressed or UTF-16 file on this thread); counts rows and reports rejects.
    package func consume(rejects: any RejectSink, merge: (P.Output, Int) -> Void) throws(InputError)
      -> InputCounts
    {
      begin()
      defer {
        cancelRest()
        if let hasher, let file {
          setChecksum(hasher.finish(file))
          if fileChecksum() == nil { checksumInBackground(path) }
        }
        file = nil  // its mapping goes with the last task holding it
      }
      if let failure { throw failure }
      if needsStreaming {
        return try streaming(
          P.self, settings: settings, path: path, displayName: displayName, rejects: rejects
        ) {
          merge($0, 0)
        }
      }
      guard let file, let columns else { return InputCounts() }
      var counter = RecordCounter(displayName: displayName, rejects: rejects)
      var lineBase = headerLines
      var position = origin
      @inline(__always) func take(_ chunk: Chunk<P.Output>) throws(InputError) {
        counter.accept(chunk.accepted)
        for reject in chunk.rejects {
          counter.reject(line: lineBase + reject.line, reason: reject.reason, raw: reject.raw)
        }
        P.noteLineOffset(lineBase, in: chunk.output)
        merge(chunk.output, lineBase)
        if let line = chunk.tooLong {
          throw .malformed(
            path: displayName,
            reason: "line \(lineBase + line) is longer than \(LineReader.maximumLineLength) bytes")
        }
        if let error = chunk.error { throw error }
        lineBase += chunk.lines
        position = max(position, chunk.end)
      }
      var k = 0
      while k < taskCount {
        ensureSubmitted(k)
        let chunk = k < tickets.count ? tickets[k]?.take() : nil
        if k < tickets.count { tickets[k] = nil }
        tookOne()
        guard let chunk else { break }
        try take(chunk)
        // The chunks after one that read on past its lines started inside its last record.
        if chunk.extended { break }
        k += 1
      }
      cancelRest()
      // After a record with a line break inside quotes that crossed a chunk's end: one chunk at a time.
      let buffer = GrowableBuffer<UInt8>()
      while position < size {
        let chunk = parseChunk(
          P(columns: columns), expected: expected, file: file, origin: position, part: 0, size: size,
          chunkBytes: chunkBytes, buffer: buffer)
        try take(chunk)
      }
      return counter.counts
    }
  }

  static func chunkStart(origin: Int64, part: Int, chunkBytes: Int) -> Int64 {
    origin + Int64(part) * Int64(chunkBytes)
  }

  static func nominalEnd(origin: Int64, part: Int, chunkBytes: Int, size: Int64) -> Int64 {
    min(size, origin + Int64(part + 1) * Int64(chunkBytes))
  }

  /// Bytes read from a file: whole lines from the first line start at or after the nominal start to
  /// the end of the line holding the byte before the nominal end.
  struct Region {
    /// File offset of `buffer[0]`.
    var base: Int64
    /// Offsets (in the buffer) of the first line start and of the end of the last whole line.
    var start: Int
    var end: Int
    /// Whether the region reaches the end of the file.
    var atEnd: Bool
    /// A line longer than the line reader allows (1-based within the region), where reading stopped.
    var tooLongLine: Int?
  }

  /// Reads and packs chunk `part` of a round starting at `origin`: from the mapped file when it is
  /// mapped, else (or when the mapping cannot provide the bytes) read into `buffer`.
  static func parseChunk<P: CSVRecordPacker>(
    _ packer: P, expected: Int, file: FileByteSource, origin: Int64, part: Int, size: Int64, chunkBytes: Int,
    buffer: GrowableBuffer<UInt8>, keepPages: Bool = false
  ) -> Chunk<P.Output> {
    if let map = file.mapping {
      let bytes = RegionBytes(buffer: buffer, map: map)
      let chunk = parseChunk(
        packer, expected: expected, file: file, origin: origin, part: part, size: size,
        chunkBytes: chunkBytes,
        bytes: bytes)
      if !keepPages { map.release(Int(bytes.windowStart), Int(chunk.end - bytes.windowStart)) }
      if !bytes.unmapped {
        let end = nominalEnd(origin: origin, part: part, chunkBytes: chunkBytes, size: size)
        chunk.mapped = Int64(bytes.loadedEnd) >= end - bytes.windowStart
        return chunk
      }
    }
    return parseChunk(
      packer, expected: expected, file: file, origin: origin, part: part, size: size, chunkBytes: chunkBytes,
      bytes: RegionBytes(buffer: buffer, map: nil))
  }

  static func parseChunk<P: CSVRecordPacker>(
    _ packer: P, expected: Int, file: FileByteSource, origin: Int64, part: Int, size: Int64, chunkBytes: Int,
    bytes: RegionBytes
  ) -> Chunk<P.Output> {
    var packer = packer
    let chunk = Chunk(output: packer.makeOutput())
    let from = chunkStart(origin: origin, part: part, chunkBytes: chunkBytes)
    chunk.end = from
    do throws(InputError) {
      let region = try readRegion(
        file: file, from: from,
        nominalEnd: nominalEnd(origin: origin, part: part, chunkBytes: chunkBytes, size: size),
        size: size, bytes: bytes, lineStartKnown: part == 0)
      guard var lines = bytes.lines(start: region.start, end: region.end), region.end > region.start else {
        // No line starts here: the lines over these bytes belong to an earlier chunk.
        chunk.end = nominalEnd(origin: origin, part: part, chunkBytes: chunkBytes, size: size)
        return chunk
      }
      packer.reserve(&chunk.output, bytes: region.end - region.start)
      let splitter = CSVSplitter()
      let probe = CSVSplitter()
      var regionEnd = region.end
      var atEnd = region.atEnd
      // A line read while a quote was open that is a record of its own: read next (CSVReader's rule).
      var carried: CSVReader.Carried?
      while true {
        let held = carried
        carried = nil
        guard let taken = held ?? lines.next().map({ CSVReader.Carried(line: lines.number, text: $0) }) else {
          break
        }
        let (line, recordLine) = (taken.text, taken.line)
        if line.count >= LineReader.maximumLineLength {
          chunk.tooLong = recordLine
          chunk.lines = recordLine
          return chunk
        }
        if CSVReader.isBlank(line) { continue }
        var result = splitter.split(line)
        var text = line
        if result == .unterminated {
          text = splitter.startPending(line)
          while true {
            var more = lines.next()
            if more == nil && !atEnd {
              // The quoted field runs past the chunk's lines: read on (the pending text is a copy).
              let used = lines.offset
              let extra = try extend(file: file, region: region, used: used, size: size, bytes: bytes)
              regionEnd = extra.end
              atEnd = extra.atEnd
              chunk.extended = true
              let number = lines.number
              lines = bytes.lines(continuingAt: used, end: regionEnd)
              lines.number = number
              more = lines.next()
            }
            guard let more else {
              result = .malformed("a quoted field is not closed before the end of the file")
              break
            }
            if more.count >= LineReader.maximumLineLength {
              chunk.tooLong = lines.number
              chunk.lines = lines.number
              return chunk
            }
            if probe.standsAlone(more, expected: expected) {
              carried = CSVReader.Carried(line: lines.number, text: more)
              result = .malformed(CSVReader.unclosedBeforeRecord)
              break
            }
            text = splitter.appendPending(more)
            result = splitter.split(text)
            if result != .unterminated { break }
            if text.count > CSVReader.maximumRecordLength {
              result = .malformed(
                "a quoted field is not closed within \(CSVReader.maximumRecordLength) bytes")
              break
            }
          }
        }
        var malformed: String?
        switch result {
        case .complete: malformed = nil
        case .malformed(let reason): malformed = reason
        case .unterminated: malformed = "a quoted field is not closed"
        }
        if malformed != nil { splitter.clearFields() }
        let record = CSVRecord(
          line: recordLine, malformed: malformed, storage: splitter.storage(for: text),
          bounds: splitter.fieldBounds,
          raw: text)
        do throws(RowRejection) {
          if let problem = record.malformed { throw RowRejection("not valid CSV: \(problem)") }
          guard record.count == expected else {
            throw RowRejection("expected \(expected) fields as in the header, found \(record.count)")
          }
          try packer.pack(record, into: &chunk.output)
          P.noteLine(recordLine, in: chunk.output)
          chunk.accepted += 1
        } catch {
          chunk.rejects.append((recordLine, error.reason, record.rawText))
        }
      }
      chunk.lines = lines.number
      chunk.end = region.base + Int64(regionEnd)
    } catch {
      chunk.error = error
    }
    return chunk
  }

  /// A compressed or UTF-16 file: one core, through ``CSVReader``.
  static func streaming<P: CSVRecordPacker>(
    _ packerType: P.Type, settings: P.Settings, path: String, displayName: String, rejects: any RejectSink,
    merge: (P.Output) -> Void
  ) throws(InputError) -> InputCounts {
    let csv = try CSVReader(path: path, displayName: displayName)
    var packer = P(
      columns: try P.columns(
        try Header(names: csv.header, displayName: displayName, line: csv.headerLine), settings: settings))
    var counter = RecordCounter(displayName: displayName, rejects: rejects)
    let expected = csv.header.count
    var output = packer.makeOutput()
    var pending = 0
    while let record = try csv.next() {
      do throws(RowRejection) {
        if let problem = record.malformed { throw RowRejection("not valid CSV: \(problem)") }
        guard record.count == expected else {
          throw RowRejection("expected \(expected) fields as in the header, found \(record.count)")
        }
        try packer.pack(record, into: &output)
        P.noteLine(record.line, in: output)
        counter.accept()
        pending += 1
        if pending >= 65_536 {
          merge(output)
          output = packer.makeOutput()
          pending = 0
        }
      } catch {
        counter.reject(line: record.line, reason: error.reason, raw: record.rawText)
      }
    }
    merge(output)
    return counter.counts
  }
}

extension CSVChunkImport.Source where P.Settings == Void {
  /// The read of `path` by a packer without settings.
  package convenience init(
    path: String, displayName: String, chunkBytes: Int = CSVChunkImport.chunkSize, checksums: Bool = false
  ) {
    self.init(
      path: path, displayName: displayName, settings: (), chunkBytes: chunkBytes, checksums: checksums)
  }
}

extension CSVChunkImport.Source where P.Settings == StoreTimeWindow {
  /// The read of `path` by a store reader on its own (the benchmark, tests): times within
  /// ``StoreTimeWindow/standalone``. A run hands its packers the window of its T instead.
  package convenience init(
    path: String, displayName: String, chunkBytes: Int = CSVChunkImport.chunkSize, checksums: Bool = false
  ) {
    self.init(
      path: path, displayName: displayName, settings: .standalone, chunkBytes: chunkBytes,
      checksums: checksums)
  }
}
