// Safety: each line is a buffer in the line reader, valid until its next `next()`; `map` and `accept` must
// not keep it (they copy what they keep), and trimming only narrows it.

package import StoreReconCore

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
