import StoreReconPlatform
import StoreReconCore
import StoreReconIO

/// The loop the CSV readers of app rows share, and the cell rules of the contracts.
///
/// UTF-8 (a BOM is tolerated), RFC 4180, a header row naming the contract's columns in any order
/// (extra columns ignored); an empty cell is NULL; timestamps are ISO 8601 with an offset.
enum AppRowCSV {
  /// One row's cells, by contract column.
  struct Cells {
    let record: CSVRecord
    let columns: [Int]
    let names: [String]

    /// The cell of contract column `k` as written; `nil` when empty (NULL).
    func optional(_ k: Int) -> String? {
      record.optionalString(columns[k])
    }

    /// The timestamp in contract column `k` in milliseconds, or ``PackedRecord/none`` when NULL.
    @inline(__always)
    func timestampMs(_ k: Int) throws(RowRejection) -> Int64 {
      try timestamp(k)?.ms ?? PackedRecord.none
    }

    /// The cell of contract column `k`, which must not be NULL.
    func required(_ k: Int) throws(RowRejection) -> String {
      guard let value = optional(k) else { throw RowRejection("missing \(names[k])") }
      return value
    }

    /// The timestamp in contract column `k`, or `nil` when NULL; rejects a value without an offset.
    func timestamp(_ k: Int) throws(RowRejection) -> Instant? {
      let bytes = ByteText.trimmed(record.field(columns[k]))
      if bytes.isEmpty { return nil }
      guard let instant = Instant.parseISO8601(bytes) else {
        throw RowRejection(
          "\(names[k]) \(ByteText.quoted(bytes)) is not an ISO 8601 timestamp with an offset")
      }
      return instant
    }

    /// The timestamp in contract column `k`, which must not be NULL.
    func requiredTimestamp(_ k: Int) throws(RowRejection) -> Instant {
      guard let instant = try timestamp(k) else { throw RowRejection("missing \(names[k])") }
      return instant
    }

    /// The value of an enumerated contract column (case-insensitive), rejecting an unknown value by name.
    func choice<T: RawRepresentable & CaseIterable>(_ k: Int, as type: T.Type) throws(RowRejection) -> T
    where T.RawValue == String {
      let text = String(decoding: ByteText.trimmed(record.field(columns[k])), as: UTF8.self)
      guard !text.isEmpty else { throw RowRejection("missing \(names[k])") }
      if let value = T(rawValue: text) ?? T(rawValue: text.lowercased()) { return value }
      let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
      throw RowRejection("unknown \(names[k]) '\(RawText.truncated(text))' (expected one of \(allowed))")
    }
  }

  /// A generous guess at a CSV file's row count from its size (at least 30 bytes a row), for reserving
  /// room: memory not written is never used.
  static func estimatedRows(_ path: String) -> Int {
    guard let size = Syscall.fileSize(atPath: path) else { return 0 }
    return min(Int(size) / 30, 1 << 28)
  }

  /// Reads `path` as the contract with columns `names`, handing each row's cells to `map`.
  static func run<Row>(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink, names: [String],
    emit: (Row) -> Void, map: (Cells, Origin) throws(RowRejection) -> Row
  ) throws(InputError) -> InputCounts {
    let csv = try CSVReader(path: path, displayName: displayName)
    return try run(
      csv: csv, numberRows: false, fileIndex: fileIndex, rejects: rejects, names: names, emit: emit, map: map)
  }

  /// Reads CSV rows streamed from `source` (a query's `COPY … TO STDOUT WITH (FORMAT csv, HEADER true)`)
  /// as the contract with columns `names`; a row's line is its number in the result (1 = first row).
  static func run<Row>(
    source: any ByteSource, displayName: String, fileIndex: Int32, rejects: any RejectSink, names: [String],
    emit: (Row) -> Void, map: (Cells, Origin) throws(RowRejection) -> Row
  ) throws(InputError) -> InputCounts {
    let lines = LineReader(source: source, displayName: displayName)
    let csv = try CSVReader(lines: lines, displayName: displayName)
    return try run(
      csv: csv, numberRows: true, fileIndex: fileIndex, rejects: rejects, names: names, emit: emit, map: map)
  }

  /// The loop: every record accepted or rejected; `numberRows` numbers records 1, 2, … instead of by line.
  private static func run<Row>(
    csv: CSVReader, numberRows: Bool, fileIndex: Int32, rejects: any RejectSink, names: [String],
    emit: (Row) -> Void, map: (Cells, Origin) throws(RowRejection) -> Row
  ) throws(InputError) -> InputCounts {
    let columns = try csv.requireColumns(names)
    var counter = RecordCounter(displayName: csv.displayName, rejects: rejects)
    let expected = csv.header.count
    var ordinal = 0
    while let record = try csv.next() {
      ordinal += 1
      let line = numberRows ? ordinal : record.line
      do throws(RowRejection) {
        if let problem = record.malformed { throw RowRejection("not valid CSV: \(problem)") }
        guard record.count == expected else {
          throw RowRejection("expected \(expected) fields as in the header, found \(record.count)")
        }
        let origin = Origin(file: fileIndex, line: Int32(clamping: line))
        let row = try map(Cells(record: record, columns: columns, names: names), origin)
        counter.accept()
        emit(row)
      } catch {
        counter.reject(line: line, reason: error.reason, raw: record.rawText)
      }
    }
    return counter.counts
  }
}
