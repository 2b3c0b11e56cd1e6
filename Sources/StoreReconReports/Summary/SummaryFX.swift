package import StoreReconCore

/// Converts money into one reporting currency for ranking and thresholds: filled from a dated FX table
/// where the config has one. Without it the summary ranks and thresholds money per currency.
package struct SummaryFX: Sendable {
  /// The currency every amount is converted into.
  package var reportingCurrency: Currency
  /// Label of the table (`ECB 2026-11-27`), printed next to converted amounts.
  package var label: String
  /// Minor units of `money` in the reporting currency, or `nil` where the table has no rate.
  package var convert: @Sendable (Money) -> Int64?

  /// Creates a conversion.
  package init(reportingCurrency: Currency, label: String, convert: @escaping @Sendable (Money) -> Int64?) {
    self.reportingCurrency = reportingCurrency
    self.label = label
    self.convert = convert
  }
}
