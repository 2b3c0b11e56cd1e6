import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconAppRows

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
