/// What a generated demo world contains by construction: its planted findings and its files.
package struct DemoTruth: Sendable {
  /// Every planted finding, sorted.
  package var planted: [PlantedFinding]
  /// Every file written, relative to the demo directory, sorted.
  package var files: [String]
  /// For every input file (relative path), how many of its lines or rows are malformed on purpose
  /// and must be rejected by the importers.
  package var rejectsPerFile: [String: Int]
  /// The price experiment per arm (control, then high), as generated: `truth/experiment_truth.csv`.
  package var experimentArms: [DemoArmTruth]
  /// The tie-out the store reports were built to give: `truth/planted_tieout*.csv`.
  package var tieOut: DemoTieOutTruth
  /// Planted refunds one source shows: chain key → the words their `refunded` finding's detail must
  /// hold (``DemoRefundSourceCheck``).
  package var refundSources: [String: String] = [:]

  /// Creates a truth.
  package init(
    planted: [PlantedFinding], files: [String], rejectsPerFile: [String: Int],
    experimentArms: [DemoArmTruth] = [], tieOut: DemoTieOutTruth = DemoTieOutTruth()
  ) {
    self.planted = planted
    self.files = files
    self.rejectsPerFile = rejectsPerFile
    self.experimentArms = experimentArms
    self.tieOut = tieOut
  }
}
