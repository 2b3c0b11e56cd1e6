import StoreReconPlatform
package import StoreReconCore

/// What an import into the ledger produced: counts, and the earliest and latest record instant.
package struct PackedImport: Sendable {
  package var counts = InputCounts()
  package var firstAt: Instant?
  package var lastAt: Instant?
  /// Accepted lines whose signature was not verified (``RecordBatch/unverifiedLines``).
  package var unverified = 0
  /// Accepted transactions without a price (``RecordBatch/unpricedLines``).
  package var unpriced = 0

  /// Creates the value from its fields.
  package init(
    counts: InputCounts = InputCounts(), firstAt: Instant? = nil, lastAt: Instant? = nil, unverified: Int = 0,
    unpriced: Int = 0
  ) {
    self.counts = counts
    self.firstAt = firstAt
    self.lastAt = lastAt
    self.unverified = unverified
    self.unpriced = unpriced
  }
}

/// Reads a JSON Lines file straight into a ``LedgerBuilder``, in chunks of whole lines.
///
/// A plain UTF-8 file is cut into fixed-size chunks at line starts; the chunks of a round are parsed on
/// all cores at once (positioned reads, one buffer per chunk) and merged in file order, so the ledger
/// receives the same records in the same order as a sequential read, and rejects carry the same line
/// numbers. Compressed or UTF-16 files stream through ``LineReader`` on one core. Lines are split and
/// numbered exactly as ``LineReader`` does (`\n`, `\r\n`, a last line without terminator; blank lines
/// numbered but not counted).
package enum JSONLinesBatchImport {
  /// Bytes per chunk.
  package static let chunkSize = 8 << 20

  /// One parsed chunk.
  final class Chunk: @unchecked Sendable {
    var batch = RecordBatch()
    /// Physical lines that start in the chunk.
    var lines = 0
    /// Rejected lines: chunk-relative line number (1-based), reason, raw text.
    var rejects: [(line: Int, reason: String, raw: String)] = []
    /// The chunk-relative number of a line too long to read, where reading stopped.
    var tooLong: Int?
    /// A read error, where reading stopped.
    var error: InputError?
    /// The chunk's bytes were parsed where the mapped file has them (their pages are loaded).
    var mapped = false
  }

  /// Imports `path` into `builder`.
  ///
  /// - Parameters:
  ///   - chunkBytes: the chunk size (tests use small chunks to cut a small file many times).
  ///   - threads: chunks parsed at once (1: one worker thread, merged in turn).
  package static func run<P: JSONLinePacker>(
    _ packer: P.Type, settings: P.Settings, path: String, displayName: String, rejects: any RejectSink,
    into builder: LedgerBuilder, chunkBytes: Int = chunkSize, threads: Int = Parallel.cores
  ) throws(InputError) -> PackedImport {
    let schedule = ReadSchedule(workers: threads)
    let source = Source<P>(path: path, displayName: displayName, settings: settings, chunkBytes: chunkBytes)
    schedule.add(source)
    return try source.consume(rejects: rejects, into: builder)
  }

  /// A JSON Lines file read through a ``ReadSchedule``: its chunks are parsed by the schedule's workers
  /// (ahead, while earlier inputs are merged) and merged in file order by ``consume(rejects:into:)``.
  package final class Source<P: JSONLinePacker>: ScheduledRead, @unchecked Sendable {
    let path: String
    let displayName: String
    let settings: P.Settings
    let chunkBytes: Int
    private var file: FileByteSource?
    private var start: Int64 = 0
    private var size: Int64 = 0
    private var failure: InputError?
    private var needsStreaming = false
    private var tickets: [ReadTicket<Chunk>?] = []
    /// Hashes the file as its chunks are parsed (``ScheduledRead/checksums``, mapped plain files).
    private var hasher: ChunkHasher?
    /// The input's snapshot (docs/snapshot.md): a plain file whose bytes it holds is not parsed.
    let snapshot: ParseSnapshot?
    /// The snapshot holds this file: its chunks are merged instead of parsed.
    private var replaying = false

    /// The read of `path`; with `checksums`, also its size and SHA-256 (``ScheduledRead/fileChecksum()``);
    /// with `snapshot`, the file is hashed first and, when the snapshot holds its bytes, not parsed.
    package init(
      path: String, displayName: String, settings: P.Settings,
      chunkBytes: Int = JSONLinesBatchImport.chunkSize,
      checksums: Bool = false, snapshot: ParseSnapshot? = nil
    ) {
      self.path = path
      self.displayName = displayName
      self.settings = settings
      self.chunkBytes = max(1, chunkBytes)
      self.snapshot = snapshot
      super.init(checksums: checksums)
    }

    override func open() {
      do throws(InputError) {
        let file = try FileByteSource(path: path, displayName: displayName)
        let container = try InputBytes.sniff(file, path: path, displayName: displayName)
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
        if let snapshot {
          let digest = try file.digestBytes()
          setChecksum((digest.bytes, ParseSnapshot.hex(digest.sha256)))
          if snapshot.begin(size: digest.bytes, sha: digest.sha256) {
            replaying = true
            return
          }
        }
        file.mapWhole()
        self.file = file
        size = file.size
        taskCount = size > start ? Int((size - start + Int64(chunkBytes) - 1) / Int64(chunkBytes)) : 0
        if checksums && snapshot == nil {
          if let map = file.mapping {
            let hasher = ChunkHasher(map: map)
            hasher.offer(0, Int(start))
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
      guard let file else { return }
      let start = self.start
      let size = self.size
      let chunkBytes = self.chunkBytes
      let hasher = self.hasher
      let settings = self.settings
      tickets.append(
        pool.submit { [self] buffer in
          guard gate.enter() else { return Chunk() }
          defer { gate.leave() }
          let chunk = parse(
            P.self, settings: settings, file: file, chunk: k, start: start, size: size,
            chunkBytes: chunkBytes, buffer: buffer,
            keepPages: hasher != nil)
          if let hasher {
            let from = start + Int64(k) * Int64(chunkBytes)
            hasher.offer(Int(from), Int(min(size, from + Int64(chunkBytes))), loaded: chunk.mapped)
          }
          return chunk
        })
    }

    /// Merges the chunks into `builder` in file order (or reads a compressed or UTF-16 file on this
    /// thread); throws as ``JSONLinesBatchImport/run(_:path:displayName:rejects:into:chunkBytes:threads:)``.
    package func consume(rejects: any RejectSink, into builder: LedgerBuilder) throws(InputError)
      -> PackedImport
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
          P.self, settings: settings, path: path, displayName: displayName, rejects: rejects, into: builder)
      }
      var result = Merger(displayName: displayName, rejects: rejects, builder: builder)
      if replaying, let snapshot {
        while let chunk = snapshot.nextChunk() { try result.merge(chunk) }
        return result.finish()
      }
      result.recorder = snapshot
      var k = 0
      while k < taskCount {
        ensureSubmitted(k)
        let chunk = (k < tickets.count ? tickets[k]?.take() : nil) ?? Chunk()
        if k < tickets.count { tickets[k] = nil }
        tookOne()
        try result.merge(chunk)
        k += 1
      }
      snapshot?.finish()
      return result.finish()
    }
  }

  /// Adds parsed chunks to the builder in order, numbering their lines and reporting their rejects.
  struct Merger {
    var counter: RecordCounter
    let builder: LedgerBuilder
    let displayName: String
    var linesBefore = 0
    var firstAt = Int64.max
    var lastAt = Int64.min
    var unverified = 0
    var unpriced = 0
    /// Keeps each parsed chunk for the input's snapshot.
    var recorder: ParseSnapshot?

    init(displayName: String, rejects: any RejectSink, builder: LedgerBuilder) {
      counter = RecordCounter(displayName: displayName, rejects: rejects)
      self.builder = builder
      self.displayName = displayName
    }

    mutating func merge(_ chunk: Chunk) throws(InputError) {
      counter.accept(chunk.batch.records.count + chunk.batch.statuses.count)
      for reject in chunk.rejects {
        counter.reject(line: linesBefore + reject.line, reason: reject.reason, raw: reject.raw)
      }
      unverified += chunk.batch.unverifiedLines
      unpriced += chunk.batch.unpricedLines
      recorder?.record(chunk)
      chunk.batch.lineOffset = linesBefore
      builder.merge(chunk.batch)
      firstAt = min(firstAt, chunk.batch.firstAt)
      lastAt = max(lastAt, chunk.batch.lastAt)
      if let line = chunk.tooLong {
        throw .malformed(
          path: displayName,
          reason: "line \(linesBefore + line) is longer than \(LineReader.maximumLineLength) bytes")
      }
      if let error = chunk.error { throw error }
      linesBefore += chunk.lines
    }

    func finish() -> PackedImport {
      return PackedImport(
        counts: counter.counts, firstAt: firstAt == Int64.max ? nil : Instant(ms: firstAt),
        lastAt: lastAt == Int64.min ? nil : Instant(ms: lastAt), unverified: unverified, unpriced: unpriced)
    }
  }
}

extension JSONLinesBatchImport {
  /// ``run(_:settings:path:displayName:rejects:into:chunkBytes:threads:)`` for a packer without settings.
  package static func run<P: PlainJSONLinePacker>(
    _ packer: P.Type, path: String, displayName: String, rejects: any RejectSink, into builder: LedgerBuilder,
    chunkBytes: Int = chunkSize, threads: Int = Parallel.cores
  ) throws(InputError) -> PackedImport {
    try run(
      packer, settings: (), path: path, displayName: displayName, rejects: rejects, into: builder,
      chunkBytes: chunkBytes, threads: threads)
  }
}

extension JSONLinesBatchImport.Source where P: PlainJSONLinePacker {
  /// The read of `path` by a packer without settings.
  package convenience init(
    path: String, displayName: String, chunkBytes: Int = JSONLinesBatchImport.chunkSize,
    checksums: Bool = false
  ) {
    self.init(
      path: path, displayName: displayName, settings: (), chunkBytes: chunkBytes, checksums: checksums)
  }
}

extension JSONLinesBatchImport.Source where P.Settings == StoreTimeWindow {
  /// The read of `path` by a store reader on its own (the benchmark, tests): times within
  /// ``StoreTimeWindow/standalone``. A run hands its packers the window of its T instead.
  package convenience init(
    path: String, displayName: String, chunkBytes: Int = JSONLinesBatchImport.chunkSize,
    checksums: Bool = false
  ) {
    self.init(
      path: path, displayName: displayName, settings: .standalone, chunkBytes: chunkBytes,
      checksums: checksums)
  }
}
