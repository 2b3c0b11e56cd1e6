/// What the readout needs besides the experiments and the data: currency, FX, fees, catalog, rounding.
public struct ExperimentSettings: Sendable {
  /// The FX table (its `reporting` is the reporting currency).
  public var fx: FXTable
  /// The store fee schedule.
  public var fees: FeeSchedule
  /// Product types and billing periods.
  public var catalog: Catalog
  /// Rounding of fees, FX conversions, refunded shares and averages.
  public var rounding: RoundingRule

  /// Creates settings.
  public init(
    fx: FXTable, fees: FeeSchedule = FeeSchedule(), catalog: Catalog = Catalog(),
    rounding: RoundingRule = .halfEven
  ) {
    self.fx = fx
    self.fees = fees
    self.catalog = catalog
    self.rounding = rounding
  }

  /// The reporting currency.
  public var reportingCurrency: Currency { fx.reporting }
}
