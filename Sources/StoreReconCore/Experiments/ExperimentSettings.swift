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
