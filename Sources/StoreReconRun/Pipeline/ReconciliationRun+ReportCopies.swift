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

extension ReconciliationRun {
  /// Stripe's balance reports read once per balance transaction: a row repeating an earlier one counts
  /// as a duplicate; two rows of one balance transaction with other values stop the run with exit 65
  /// naming both (docs/inputs.md#stripe-balance-reports).
  package static func readStripeBalanceOnce(_ inputs: inout Inputs, progress: any ProgressSink)
    throws(RunError)
  {
    let names = inputs.reports.map(\.path)
    func name(_ file: Int32) -> String {
      Int(file) < names.count ? names[Int(file)] : "input \(file)"
    }
    switch StripeBalanceCopies.readOnce(&inputs.storeReports.stripeBalance) {
    case .failure(let c):
      throw RunError(
        .dataError,
        "stripe.reports: balance transaction \(c.id) is in \(name(c.first.file)) line \(c.first.line) and "
          + "\(name(c.second.file)) line \(c.second.line) with different values: keep one of the reports "
          + "(docs/inputs.md#stripe-balance-reports)")
    case .success(let dropped):
      for (file, rows) in dropped.sorted(by: { $0.key < $1.key }) {
        progress.note(
          "note: \(name(file)) repeats \(rows) balance transaction(s) an earlier Stripe report holds: "
            + "counted once, as duplicates")
        let i = Int(file)
        guard i < inputs.reports.count else { continue }
        inputs.reports[i].duplicates += rows
        inputs.reports[i].counts.accepted -= rows
      }
    }
  }
}
