// CSVReader's record lines: the text of a record as a buffer in the line reader (or the splitter's
// pending record), valid until the next read.
extension CSVReader {
  /// Reads the next non-blank record's lines and splits it; `nil` at the end.
  static func nextRecord(
    _ lines: LineReader, _ splitter: CSVSplitter
  ) throws(InputError) -> (line: Int, text: UnsafeBufferPointer<UInt8>, result: CSVSplitter.Result)? {
    while let text = try lines.next() {
      if isBlank(text) { continue }
      let line = lines.lineNumber
      let result = splitter.split(text)
      guard result == .unterminated else { return (line, text, result) }
      var joined = splitter.startPending(text)
      while true {
        guard let more = try lines.next() else {
          return (line, joined, .malformed("a quoted field is not closed before the end of the file"))
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
    return nil
  }

  static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in line where byte != 0x20 && byte != 0x09 && byte != 0x0D { return false }
    return true
  }
}
