import Foundation
import Testing

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters
@testable import StoreReconAppRows
@testable import StoreReconPostgres
@testable import StoreReconReports
@testable import StoreReconMail
@testable import StoreReconDemo
@testable import StoreReconCLI

/// What one importer run produced.
struct ImportResult<Row> {
  var rows: [Row] = []
  var rejects: [Reject] = []
  var counts = InputCounts()

  /// `read = accepted + rejected`, and the counts match what was emitted and rejected.
  func checkCounts(sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(counts.read == counts.accepted + counts.rejected, sourceLocation: sourceLocation)
    #expect(counts.accepted == rows.count, sourceLocation: sourceLocation)
    #expect(counts.rejected == rejects.count, sourceLocation: sourceLocation)
  }
}

/// Runs a store importer over `path`, collecting records and rejects.
func runImporter(_ importer: some StoreImporter, _ path: String, name: String = "input") throws(InputError)
  -> ImportResult<StoreTransaction>
{
  let sink = RejectList()
  var rows: [StoreTransaction] = []
  let counts = try importer.read(path: path, displayName: name, fileIndex: 3, rejects: sink) {
    rows.append($0)
  }
  return ImportResult(rows: rows, rejects: sink.rejects, counts: counts)
}

/// Runs an app-row reader over `path`, collecting rows and rejects.
func runReader<R: AppRowReader>(_ reader: R, _ path: String, name: String = "rows.csv") throws(InputError)
  -> ImportResult<R.Row>
{
  let sink = RejectList()
  var rows: [R.Row] = []
  let counts = try reader.read(path: path, displayName: name, fileIndex: 1, rejects: sink) { rows.append($0) }
  let result = ImportResult(rows: rows, rejects: sink.rejects, counts: counts)
  result.checkCounts()
  return result
}

/// Every line a line reader gives for `path`, as strings with their numbers.
func readLines(_ path: String, chunkSize: Int = 1 << 20) throws -> [(Int, String)] {
  let reader = LineReader(source: try InputBytes.open(path: path), displayName: path, chunkSize: chunkSize)
  var lines: [(Int, String)] = []
  try reader.forEachLine { line, number in lines.append((number, String(decoding: line, as: UTF8.self))) }
  return lines
}
