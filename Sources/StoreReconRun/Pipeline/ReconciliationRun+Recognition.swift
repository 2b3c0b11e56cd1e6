package import StoreReconCore

extension ReconciliationRun {
  /// Revenue recognised and deferred as of T, months in the config's time zone
  /// (docs/reports.md#revenue_recognitioncsv).
  static func recognitionSums(_ setup: Setup, ledger: Ledger) -> RecognitionSums {
    let calendar = setup.calendar
    return RevenueRecognition.sums(
      ledger: ledger, dayOf: { calendar.day(of: $0) }, startOf: { calendar.start(of: $0) },
      rounding: setup.config.rounding)
  }

  /// revenue_recognition.csv's rows of the outcome, through the report date's month.
  package static func recognitionRows(_ setup: Setup, _ outcome: Outcome) -> [RecognitionRow] {
    var overflow = false
    return RecognitionRow.rows(outcome.recognition, through: ReportMonth(setup.date), overflow: &overflow)
  }
}
