/// A price experiment as the config defines it (docs/reports.md#the-price-test-readout).
package struct Experiment: Sendable, Equatable {
  /// The experiment id as the assignments name it.
  package var id: String
  /// First and last report day (config time zone) on which users are enrolled; assignments on other
  /// days are not part of the experiment.
  package var enrollStart: CivilDate
  package var enrollEnd: CivilDate
  /// The arms in config order; the first is the control every other arm is compared with.
  package var arms: [ExperimentArm]
  /// An arm whose `mature_share` is below this is `immature` (default 0.9).
  package var maturityThreshold: Double
  /// Resampling settings of the bootstrap intervals.
  package var bootstrap: BootstrapSettings

  /// Creates an experiment.
  package init(
    id: String, enrollStart: CivilDate, enrollEnd: CivilDate, arms: [ExperimentArm],
    maturityThreshold: Double = 0.9, bootstrap: BootstrapSettings = BootstrapSettings()
  ) {
    self.id = id
    self.enrollStart = enrollStart
    self.enrollEnd = enrollEnd
    self.arms = arms
    self.maturityThreshold = maturityThreshold
    self.bootstrap = bootstrap
  }
}
