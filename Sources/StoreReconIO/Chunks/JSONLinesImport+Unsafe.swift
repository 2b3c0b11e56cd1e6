// Safety: each line is a buffer in the line reader, valid until its next `next()`; `map` and `accept` must
// not keep it (they copy what they keep), and trimming only narrows it. `byteLineBatches` copies each line
// into its batch's byte array before the next `next()`; its parts read that array, which nobody writes
// while they run, through one pointer taken for the whole parallel step, each part only its own lines'
// ranges (every range inside the array, checked as it is recorded).

package import StoreReconCore
import StoreReconPlatform

/// The loop every JSON Lines importer shares: one record per line, blank lines skipped (not counted).
package enum JSONLinesImport {
  /// Reads `path` line by line and hands each non-blank line to `map`; counts and rejects.
  package static func run(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (StoreTransaction) -> Void,
    map: (UnsafeBufferPointer<UInt8>, Origin) throws(RowRejection) -> StoreTransaction
  ) throws(InputError) -> InputCounts {
    try byteLines(path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects) {
      (text, origin) throws(RowRejection) in
      emit(try map(text, origin))
    }
  }

  /// Reads `path` line by line and hands each non-blank line, as text, to `accept` (which throws to
  /// reject it); counts and rejects as ``run(path:displayName:fileIndex:rejects:emit:map:)`` does.
  package static func lines(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    accept: (String, Origin) throws(RowRejection) -> Void
  ) throws(InputError) -> InputCounts {
    try byteLines(path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects) {
      (text, origin) throws(RowRejection) in
      try accept(String(decoding: text, as: UTF8.self), origin)
    }
  }

  /// ``lines(path:displayName:fileIndex:rejects:accept:)`` handing each line's bytes (valid UTF-8, without
  /// leading and trailing whitespace; valid only during the call) instead of a String.
  package static func byteLines(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    accept: (UnsafeBufferPointer<UInt8>, Origin) throws(RowRejection) -> Void
  ) throws(InputError) -> InputCounts {
    let lines = try LineReader(path: path, displayName: displayName)
    var counter = RecordCounter(displayName: displayName, rejects: rejects)
    while let line = try lines.next() {
      let text = trimmed(line)
      if text.isEmpty { continue }
      let number = lines.lineNumber
      let origin = Origin(file: fileIndex, line: Int32(clamping: number))
      do throws(RowRejection) {
        if let problem = UTF8Validation.problem(text) { throw RowRejection(problem.reason) }
        try accept(text, origin)
        counter.accept()
      } catch {
        counter.reject(line: number, reason: error.reason, raw: RawText.truncated(text))
      }
    }
    return counter.counts
  }

  /// ``byteLines(path:displayName:fileIndex:rejects:accept:)`` with the parsing on every core: lines are
  /// gathered into batches of about `batchBytes`, each batch is cut into one part per core, `parse` turns
  /// each line of a part into a value (or rejects it) on that part's thread, with a `State` of its own
  /// made by `makeState`, and `apply` takes the values on the calling thread, in line order. Counts,
  /// rejects and the order `apply` sees are those of the one-thread loop, as `parse` reads only its line.
  /// When the reader fails part-way, the lines before the failure are applied first.
  package static func byteLineBatches<State, T: Sendable>(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink, batchBytes: Int = 8 << 20,
    makeState: () -> State,
    parse: (inout State, UnsafeBufferPointer<UInt8>, Origin) throws(RowRejection) -> T,
    apply: (T, Origin) -> Void
  ) throws(InputError) -> InputCounts {
    let lines = try LineReader(path: path, displayName: displayName)
    var counter = RecordCounter(displayName: displayName, rejects: rejects)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(batchBytes + 4096)
    // Each gathered line: where it starts in `bytes`, its length, its line number.
    var starts: [Int] = []
    var lengths: [Int] = []
    var numbers: [Int] = []
    func flush() {
      guard !starts.isEmpty else { return }
      let parts = min(Parallel.cores, max(1, starts.count / 64))
      let outcomes: [[LineOutcome<T>]] = bytes.withUnsafeBufferPointer { all in
        Parallel.map(parts: parts) { part in
          var state = makeState()
          var out: [LineOutcome<T>] = []
          let range = Parallel.range(part, of: parts, count: starts.count)
          out.reserveCapacity(range.count)
          for i in range {
            let text = UnsafeBufferPointer(rebasing: all[starts[i]..<(starts[i] + lengths[i])])
            let origin = Origin(file: fileIndex, line: Int32(clamping: numbers[i]))
            do throws(RowRejection) {
              if let problem = UTF8Validation.problem(text) { throw RowRejection(problem.reason) }
              out.append(.value(try parse(&state, text, origin)))
            } catch {
              out.append(.rejected(error.reason))
            }
          }
          return out
        }
      }
      var i = 0
      for part in outcomes {
        for outcome in part {
          switch outcome {
          case .value(let value):
            apply(value, Origin(file: fileIndex, line: Int32(clamping: numbers[i])))
            counter.accept()
          case .rejected(let reason):
            let raw = bytes.withUnsafeBufferPointer {
              RawText.truncated(UnsafeBufferPointer(rebasing: $0[starts[i]..<(starts[i] + lengths[i])]))
            }
            counter.reject(line: numbers[i], reason: reason, raw: raw)
          }
          i += 1
        }
      }
      bytes.removeAll(keepingCapacity: true)
      starts.removeAll(keepingCapacity: true)
      lengths.removeAll(keepingCapacity: true)
      numbers.removeAll(keepingCapacity: true)
    }
    do throws(InputError) {
      while let line = try lines.next() {
        let text = trimmed(line)
        if text.isEmpty { continue }
        starts.append(bytes.count)
        lengths.append(text.count)
        numbers.append(lines.lineNumber)
        bytes.append(contentsOf: text)
        if bytes.count >= batchBytes { flush() }
      }
    } catch {
      flush()
      throw error
    }
    flush()
    return counter.counts
  }

  /// Parses a line as JSON, rejecting it with "not valid JSON: …" when it is not.
  package static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(RowRejection) -> JSONValue {
    do {
      return try JSONParser.parse(line)
    } catch {
      throw RowRejection("not valid JSON: \(error)")
    }
  }

  /// `bytes` without leading and trailing ASCII whitespace.
  static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var start = 0
    var end = bytes.count
    while start < end && isSpace(bytes[start]) { start += 1 }
    while end > start && isSpace(bytes[end - 1]) { end -= 1 }
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
  }

  @inline(__always)
  static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }
}

/// What ``JSONLinesImport/byteLineBatches(path:displayName:fileIndex:rejects:batchBytes:makeState:parse:apply:)``
/// made of one line.
private enum LineOutcome<T> {
  case value(T)
  case rejected(String)
}
