import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters

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
