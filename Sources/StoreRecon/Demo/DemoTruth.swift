/// What a generated demo world contains by construction: its planted findings and its files.
public struct DemoTruth: Sendable {
  /// Every planted finding, sorted.
  public var planted: [PlantedFinding]
  /// Every file written, relative to the demo directory, sorted.
  public var files: [String]
  /// For every input file (relative path), how many of its lines or rows are malformed on purpose
  /// and must be rejected by the importers.
  public var rejectsPerFile: [String: Int]
  /// The price experiment per arm (control, then high), as generated: `truth/experiment_truth.csv`.
  public var experimentArms: [DemoArmTruth]

  /// Creates a truth.
  public init(
    planted: [PlantedFinding], files: [String], rejectsPerFile: [String: Int],
    experimentArms: [DemoArmTruth] = []
  ) {
    self.planted = planted
    self.files = files
    self.rejectsPerFile = rejectsPerFile
    self.experimentArms = experimentArms
  }
}
