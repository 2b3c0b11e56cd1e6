/// The readout of one price experiment: plain values that the CSV and workbook writers render.
package struct Readout: Sendable {
  /// The experiment as configured.
  package var experiment: Experiment
  /// The currency of the reporting rows.
  package var reportingCurrency: Currency
  /// The report day (the series runs from `experiment.enrollStart` through it).
  package var reportDate: CivilDate
  /// One readout per arm, in config order (the first is control).
  package var arms: [ArmReadout]
  /// The sample-ratio-mismatch test of assigned counts against the weights; `nil` when nobody is assigned.
  package var srm: ChiSquare.Test?
  /// Every credited charge, sorted by arm (config order), user, charge instant, store, chain, transaction.
  package var lineage: CreditedCharges
  /// Credited charges without an FX rate.
  package var fxGaps: [FXGap]
  /// Assignment rows of this experiment that were not used: outside the enrolment days or after T,
  /// naming an arm the config does not know, or a later row of an already assigned user (the user's
  /// first assignment is their arm: intention to treat).
  package var assignmentsOutsideWindow: Int
  package var assignmentsToUnknownArms: Int
  package var repeatedAssignments: Int
  /// Users whose later assignment rows name a different arm than their first.
  package var usersReassigned: Int

  /// The p-value below which the assigned counts are a sample-ratio mismatch.
  package static let srmThreshold = 0.001

  /// Whether the assigned counts are a sample-ratio mismatch.
  package var hasSampleRatioMismatch: Bool { (srm?.pValue ?? 1) < Readout.srmThreshold }
}
