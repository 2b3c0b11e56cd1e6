/// Reads the assignments contract from CSV: `user_id, experiment_id, arm_id, assigned_at` (all required).
public struct AssignmentCSVReader: AppRowReader {
  /// The contract's columns, in contract order.
  public static let columns = ["user_id", "experiment_id", "arm_id", "assigned_at"]

  /// Creates the reader.
  public init() {}

  /// Reads one assignments CSV file.
  public func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink, emit: (Assignment) -> Void
  ) throws(InputError) -> InputCounts {
    try AppRowCSV.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: AssignmentCSVReader.columns, emit: emit, map: AssignmentCSVReader.row)
  }

  /// Reads assignments rows streamed from `source` (a query's CSV COPY output); lines are row numbers.
  public func read(
    source: any ByteSource, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (Assignment) -> Void
  ) throws(InputError) -> InputCounts {
    try AppRowCSV.run(
      source: source, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: AssignmentCSVReader.columns, emit: emit, map: AssignmentCSVReader.row)
  }

  /// One row's cells as `Assignment`, or why the row is rejected.
  static func row(_ cells: AppRowCSV.Cells, _ origin: Origin) throws(RowRejection) -> Assignment {
    Assignment(
      userId: try cells.required(0), experimentId: try cells.required(1), armId: try cells.required(2),
      assignedAt: try cells.requiredTimestamp(3), origin: origin)
  }
}
