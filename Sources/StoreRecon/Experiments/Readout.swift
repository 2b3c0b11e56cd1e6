/// The readout of one price experiment: plain values that the CSV and workbook writers render.
public struct Readout: Sendable {
  /// The experiment as configured.
  public var experiment: Experiment
  /// The currency of the reporting rows.
  public var reportingCurrency: Currency
  /// The report day (the series runs from `experiment.enrollStart` through it).
  public var reportDate: CivilDate
  /// One readout per arm, in config order (the first is control).
  public var arms: [ArmReadout]
  /// The sample-ratio-mismatch test of assigned counts against the weights; `nil` when nobody is assigned.
  public var srm: ChiSquare.Test?
  /// Every credited charge, sorted by arm (config order), user, charge instant, store, chain, transaction.
  public var lineage: LineageRows
  /// Credited charges without an FX rate.
  public var fxGaps: [FXGap]
  /// Assignment rows of this experiment that were not used: outside the enrolment days or after T,
  /// naming an arm the config does not know, or a later row of an already assigned user (the user's
  /// first assignment is their arm: intention to treat).
  public var assignmentsOutsideWindow: Int
  public var assignmentsToUnknownArms: Int
  public var repeatedAssignments: Int
  /// Users whose later assignment rows name a different arm than their first.
  public var usersReassigned: Int

  /// The p-value below which the assigned counts are a sample-ratio mismatch.
  public static let srmThreshold = 0.001

  /// Whether the assigned counts are a sample-ratio mismatch.
  public var hasSampleRatioMismatch: Bool { (srm?.pValue ?? 1) < Readout.srmThreshold }
}
