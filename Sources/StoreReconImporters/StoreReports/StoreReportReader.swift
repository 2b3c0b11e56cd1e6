import StoreReconCore
import StoreReconIO

/// The reading loop the store-report importers share: the header mapped by name, then every record
/// either counted (accepted, rejected with its reason) or passed over as not a row.
enum StoreReportReader {
  /// The separator of Apple's reports (tab) and of Google's (comma).
  static let tab: UInt8 = 0x09
  static let comma: UInt8 = 0x2C

  /// What one record turned out to be.
  enum Outcome {
    /// A row, accepted.
    case accepted
    /// Not a data row (a trailer line that checks out): not counted.
    case notARow
  }

  /// Finds the columns of a header: each entry's names are alternatives, the first one is reported
  /// when missing. Throws ``InputError/missingColumns(file:_:)`` listing every missing one.
  struct Header {
    let csv: CSVReader
    var missing: [String] = []

    init(_ csv: CSVReader) { self.csv = csv }

    /// The index of the first of `names` in the header; `-1` (and noted missing when `required`).
    mutating func find(_ names: String..., required: Bool = true) -> Int {
      if let index = csv.columnIndex(anyOf: names) { return index }
      if required { missing.append(names[0]) }
      return -1
    }

    /// Throws when a required column was missing.
    func check() throws(InputError) {
      guard missing.isEmpty else { throw .missingColumns(file: csv.displayName, missing) }
    }
  }

  /// Calls `body` with every record after the header, as cells and its origin; a record that does not
  /// split (an unclosed quote) is rejected before `body` sees it. `body` returns what the record was,
  /// or throws the reason it is rejected.
  static func forEachRecord(
    _ csv: CSVReader, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    _ body: (ReportCells, Origin) throws(RowRejection) -> Outcome
  ) throws(InputError) -> InputCounts {
    var counter = RecordCounter(displayName: displayName, rejects: rejects)
    let interner = StringInterner()
    while let record = try csv.next() {
      do throws(RowRejection) {
        if let problem = record.malformed { throw RowRejection("not valid CSV: \(problem)") }
        let origin = Origin(file: fileIndex, line: Int32(clamping: record.line))
        switch try body(ReportCells(record: record, interner: interner), origin) {
        case .accepted: counter.accept()
        case .notARow: break
        }
      } catch {
        counter.reject(line: record.line, reason: error.reason, raw: record.rawText)
      }
    }
    return counter.counts
  }

  /// Rejects a record whose field count differs from the header's.
  static func checkFieldCount(_ cells: ReportCells, _ csv: CSVReader) throws(RowRejection) {
    let expected = csv.header.count
    guard cells.record.count == expected else {
      throw RowRejection("expected \(expected) fields as in the header, found \(cells.record.count)")
    }
  }
}
