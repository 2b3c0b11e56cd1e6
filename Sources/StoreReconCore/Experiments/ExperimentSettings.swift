/// What the readout needs besides the experiments and the data: currency, FX, fees, catalog, rounding.
package struct ExperimentSettings: Sendable {
  /// The FX table (its `reporting` is the reporting currency).
  package var fx: FXRateBook
  /// The store fee schedule.
  package var fees: FeeSchedule
  /// Product types and billing periods.
  package var catalog: Catalog
  /// Rounding of fees, FX conversions, refunded shares and averages.
  package var rounding: RoundingRule
  /// Settled proceeds from the stores' settlement reports, used instead of the fee schedule's estimate
  /// for the charges they cover; `nil` without such reports.
  package var settled: SettledProceeds?

  /// Creates settings.
  package init(
    fx: FXRateBook, fees: FeeSchedule = FeeSchedule(), catalog: Catalog = Catalog(),
    rounding: RoundingRule = .halfEven
  ) {
    self.fx = fx
    self.fees = fees
    self.catalog = catalog
    self.rounding = rounding
  }

  /// The reporting currency.
  package var reportingCurrency: Currency { fx.reporting }
}
