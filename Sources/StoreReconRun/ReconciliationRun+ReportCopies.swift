package import StoreReconCore
package import StoreReconPlatform

extension ReconciliationRun {
  /// The stores' money reports read once per report: a file that repeats an earlier one counts as
  /// duplicates (noted on stderr, in the summary's Inputs and the manifest); two files covering one
  /// period with different rows stop the run with exit 65 naming both
  /// (docs/inputs.md#a-money-report-given-twice).
  package static func readStoreReportsOnce(_ inputs: inout Inputs, progress: any ProgressSink)
    throws(RunError)
  {
    let names = inputs.reports.map(\.path)
    func name(_ file: Int32) -> String {
      Int(file) < names.count ? names[Int(file)] : "input \(file)"
    }
    switch StoreReportCopies.readOnce(&inputs.storeReports) {
    case .failure(let error):
      let c = error.conflict
      throw RunError(
        .dataError,
        "\(c.kind.rawValue): \(name(c.first)) and \(name(c.second)) both cover \(c.period) with different "
          + "rows: keep the store's report and move the other away (docs/inputs.md#a-money-report-given-twice)"
      )
    case .success(let copies):
      for copy in copies {
        progress.note(
          "note: \(name(copy.dropped)) is the same \(copy.kind.rawValue) report as \(name(copy.kept)): "
            + "counted once, its \(copy.rows) rows as duplicates")
        let i = Int(copy.dropped)
        guard i < inputs.reports.count else { continue }
        inputs.reports[i].duplicates += copy.rows
        inputs.reports[i].counts.accepted -= copy.rows
      }
    }
  }
}
