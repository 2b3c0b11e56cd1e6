// Safety: the record text is a buffer in the line reader or the splitter's pending record, valid until the
// next read; a carried line is used at the very next call, before the line reader reads again.

// CSVReader's record lines: the text of a record as a buffer in the line reader (or the splitter's
// pending record), valid until the next read.
extension CSVReader {
  /// A line read ahead while a quoted field was open, that turned out to be a record of its own.
  struct Carried {
    var line: Int
    var text: UnsafeBufferPointer<UInt8>
  }

  /// Reads the next non-blank record's lines and splits it; `nil` at the end.
  ///
  /// A quoted field left open at a line's end continues on the next lines — unless one of them is, on
  /// its own, a whole record with the header's `expected` fields: then the open record is rejected as
  /// the lines before it (an unbalanced quote rejects its own record) and reading resynchronises at
  /// that line, which is handed back through `carried` for the next call.
  static func nextRecord(
    _ lines: LineReader, _ splitter: CSVSplitter, probe: CSVSplitter? = nil, expected: Int? = nil,
    carried: inout Carried?
  ) throws(InputError) -> (line: Int, text: UnsafeBufferPointer<UInt8>, result: CSVSplitter.Result)? {
    while true {
      let text: UnsafeBufferPointer<UInt8>
      let line: Int
      if let held = carried {
        carried = nil
        (text, line) = (held.text, held.line)
      } else {
        guard let next = try lines.next() else { return nil }
        (text, line) = (next, lines.lineNumber)
      }
      if isBlank(text) { continue }
      let result = splitter.split(text)
      guard result == .unterminated else { return (line, text, result) }
      var joined = splitter.startPending(text)
      while true {
        guard let more = try lines.next() else {
          return (line, joined, .malformed("a quoted field is not closed before the end of the file"))
        }
        if let probe, let expected, probe.standsAlone(more, expected: expected) {
          carried = Carried(line: lines.lineNumber, text: more)
          return (line, joined, .malformed(unclosedBeforeRecord))
        }
        joined = splitter.appendPending(more)
        let again = splitter.split(joined)
        if again != .unterminated { return (line, joined, again) }
        if joined.count > maximumRecordLength {
          return (
            line, joined, .malformed("a quoted field is not closed within \(maximumRecordLength) bytes")
          )
        }
      }
    }
  }

  /// The reason for a record whose quote is still open when a line reads as a record of its own.
  static let unclosedBeforeRecord =
    "a quoted field is not closed before the next line that is a record of its own (read from there)"

  static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in line where byte != 0x20 && byte != 0x09 && byte != 0x0D { return false }
    return true
  }
}
