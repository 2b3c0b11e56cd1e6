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
    // Experiment and arm ids repeat on every row: one shared string each, not one allocation a row.
    let shared = StringInterner()
    return try AppRowCSV.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: AssignmentCSVReader.columns, emit: emit
    ) { (cells, origin) throws(RowRejection) -> Assignment in
      Assignment(
        userId: try cells.required(0), experimentId: shared.intern(try cells.requiredBytes(1)),
        armId: shared.intern(try cells.requiredBytes(2)), assignedAt: try cells.requiredTimestamp(3),
        origin: origin)
    }
  }

  /// Packs assignment rows of one chunk.
  struct Packer: CSVRecordPacker {
    let columns: [Int]
    let shared = StringInterner()

    static func columns(_ header: CSVChunkImport.Header) throws(InputError) -> [Int] {
      try header.requireColumns(AssignmentCSVReader.columns)
    }

    init(columns: [Int]) { self.columns = columns }

    func makeOutput() -> [Assignment] { [] }

    mutating func pack(_ record: CSVRecord, into rows: inout [Assignment]) throws(RowRejection) {
      let cells = AppRowCSV.Cells(record: record, columns: columns, names: AssignmentCSVReader.columns)
      rows.append(
        Assignment(
          userId: try cells.required(0), experimentId: shared.intern(try cells.requiredBytes(1)),
          armId: shared.intern(try cells.requiredBytes(2)), assignedAt: try cells.requiredTimestamp(3),
          origin: Origin(file: -1, line: Int32(clamping: record.line))))
    }
  }
}
