package import StoreReconCore

extension ReportTables {
  /// `duplicates.csv`: one row per record read again, its files named by the inputs' paths.
  package static func duplicatesCSV(_ duplicates: [RecordDuplicate], reports: [InputReport]) -> [UInt8] {
    var csv = CSVWriter(header: [
      "kind", "store", "record", "id", "kept_file", "kept_line", "dropped_file", "dropped_line",
    ])
    func file(_ i: Int32) -> String { reports.indices.contains(Int(i)) ? reports[Int(i)].path : "" }
    for d in duplicates {
      csv.row([
        d.kind.rawValue, d.store.rawValue, d.record, d.id, file(d.keptInput), String(d.keptLine),
        file(d.droppedInput), String(d.droppedLine),
      ])
    }
    return csv.bytes
  }
}
