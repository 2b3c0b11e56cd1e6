/// Reads an RFC 4180 CSV file as bytes: a header row mapped by name, then records of byte fields.
///
/// Quoted fields may hold commas, quotes (`""`) and line breaks (a record then spans lines; a line
/// break inside quotes reads as `\n`) — but a line that on its own is a whole record of the header's
/// field count ends an open quote: the record before it is rejected and reading goes on there. A quote inside an unquoted field is kept as text. Blank
/// lines are skipped. A record's field count is not checked here: compare ``CSVRecord/count`` with
/// ``header``'s count and reject as the format requires.
package final class CSVReader {
  /// The longest record (all its lines) accepted while a quoted field stays open.
  package static let maximumRecordLength = 1 << 20

  /// The header row's names, as written.
  package let header: [String]
  /// The 1-based line of the header row (0 for an empty file).
  package let headerLine: Int
  /// The file's name as the user wrote it.
  package let displayName: String
  private let lines: LineReader
  private let splitter: CSVSplitter
  /// Splits a line on its own, to tell whether it starts a record while a quote is open.
  private let probe: CSVSplitter
  /// A line read ahead that the next call reads as a record.
  private var carried: Carried?
  private let lookup: [String: Int]

  /// Opens `path` (plain, gzip or zip; UTF-8 or UTF-16 with BOM) and reads its header row.
  ///
  /// `separator` is a comma (RFC 4180) or a tab (tab-separated, no quoting: Apple's reports).
  package convenience init(path: String, displayName: String, separator: UInt8 = 0x2C) throws(InputError) {
    try self.init(
      lines: LineReader(path: path, displayName: displayName), displayName: displayName, separator: separator)
  }

  /// Reads CSV from `lines`, starting with its header row (the first line that is not blank).
  package init(lines: LineReader, displayName: String, separator: UInt8 = 0x2C) throws(InputError) {
    self.lines = lines
    self.displayName = displayName
    splitter = CSVSplitter(separator: separator)
    probe = CSVSplitter(separator: separator)
    var names: [String] = []
    var line = 0
    var none: Carried?
    if let (first, text, result) = try CSVReader.nextRecord(lines, splitter, carried: &none) {
      guard result == .complete else {
        throw .malformed(path: displayName, reason: "the header row (line \(first)) is not valid CSV")
      }
      names = splitter.strings(for: text)
      line = first
    }
    header = names
    headerLine = line
    lookup = try CSVReader.columnLookup(names, displayName: displayName, line: line)
  }

  /// The column index of each header name's key (the first of several blank names); throws when a
  /// header names one column twice, naming both (docs/inputs.md#what-holds-for-every-input).
  package static func columnLookup(_ names: [String], displayName: String, line: Int) throws(InputError)
    -> [String: Int]
  {
    var map: [String: Int] = [:]
    for (index, name) in names.enumerated() {
      let key = CSVReader.key(name)
      if let earlier = map[key] {
        // Which of two columns of one name holds the data cannot be told.
        guard key.isEmpty else {
          throw .malformed(
            path: displayName,
            reason: "the header row (line \(line)) names column '\(name)' twice (columns \(earlier + 1) and "
              + "\(index + 1)): which one holds the data cannot be told")
        }
        continue
      }
      map[key] = index
    }
    return map
  }

  /// The index of the column named `name` (ignoring case and surrounding spaces), or `nil`.
  package func columnIndex(_ name: String) -> Int? {
    lookup[CSVReader.key(name)]
  }

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

  /// The next record, or `nil` at the end. Valid until the next call.
  package func next() throws(InputError) -> CSVRecord? {
    guard
      let (line, text, result) = try CSVReader.nextRecord(
        lines, splitter, probe: probe, expected: header.count, carried: &carried)
    else { return nil }
    var malformed: String?
    switch result {
    case .complete: malformed = nil
    case .malformed(let reason): malformed = reason
    case .unterminated: malformed = "a quoted field is not closed"
    }
    if malformed != nil { splitter.clearFields() }
    return CSVRecord(
      line: line, malformed: malformed, storage: splitter.storage(for: text), bounds: splitter.fieldBounds,
      raw: text)
  }

  /// Calls `body` with every record.
  package func forEachRecord(_ body: (CSVRecord) -> Void) throws(InputError) {
    while let record = try next() { body(record) }
  }

  package static func key(_ name: String) -> String {
    var text = Substring(name)
    while let first = text.first, first == " " || first == "\t" || first == "\u{FEFF}" {
      text = text.dropFirst()
    }
    while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
    return text.lowercased()
  }
}
