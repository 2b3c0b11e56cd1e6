package import StoreReconCore
package import StoreReconIO

/// Reads the assignments contract from CSV: `user_id, experiment_id, arm_id, assigned_at` (all required).
package struct AssignmentCSVReader: AppRowReader {
  /// The contract's columns, in contract order.
  package static let columns = ["user_id", "experiment_id", "arm_id", "assigned_at"]

  /// Creates the reader.
  package init() {}

  /// Reads one assignments CSV file.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink, emit: (Assignment) -> Void
  ) throws(InputError) -> InputCounts {
    // Experiment and arm ids repeat on every row: one shared string each, not one allocation a row.
    let shared = StringInterner()
    return try AppRowCSV.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: AssignmentCSVReader.columns, emit: emit
    ) { (cells, origin) throws(RowRejection) -> Assignment in
      try AssignmentCSVReader.row(cells, origin, shared)
    }
  }

  /// Reads one assignments CSV file, chunked by a ``ReadSchedule``: the same rows, lines and rejects as
  /// ``read(path:displayName:fileIndex:rejects:emit:)``.
  package func read(
    _ source: CSVChunkImport.Source<Packer>, fileIndex: Int32, rejects: any RejectSink,
    emit: (Assignment) -> Void
  ) throws(InputError) -> InputCounts {
    try source.consume(rejects: rejects) { rows, linesBefore in
      for var row in rows {
        row.origin = Origin(file: fileIndex, line: Int32(clamping: linesBefore + Int(row.origin.line)))
        emit(row)
      }
    }
  }

  /// Packs assignment rows of one chunk.
  package struct Packer: CSVRecordPacker {
    let columns: [Int]
    let shared = StringInterner()

    package static func columns(_ header: CSVChunkImport.Header) throws(InputError) -> [Int] {
      try header.requireColumns(AssignmentCSVReader.columns)
    }

    package init(columns: [Int]) { self.columns = columns }

    package func makeOutput() -> [Assignment] { [] }

    /// About one row per 56 bytes.
    package func reserve(_ rows: inout [Assignment], bytes: Int) { rows.reserveCapacity(bytes / 56 + 16) }

    package mutating func pack(_ record: CSVRecord, into rows: inout [Assignment]) throws(RowRejection) {
      let cells = AppRowCSV.Cells(record: record, columns: columns, names: AssignmentCSVReader.columns)
      rows.append(
        Assignment(
          userId: try cells.required(0), experimentId: shared.intern(try cells.requiredBytes(1)),
          armId: shared.intern(try cells.requiredBytes(2)), assignedAt: try cells.requiredTimestamp(3),
          origin: Origin(file: -1, line: Int32(clamping: record.line))))
    }
  }

  /// Reads assignments rows streamed from `source` (a query's CSV COPY output); lines are row numbers.
  package func read(
    source: any ByteSource, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (Assignment) -> Void
  ) throws(InputError) -> InputCounts {
    let shared = StringInterner()
    return try AppRowCSV.run(
      source: source, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: AssignmentCSVReader.columns, emit: emit
    ) { (cells, origin) throws(RowRejection) -> Assignment in
      try AssignmentCSVReader.row(cells, origin, shared)
    }
  }

  /// One row's cells as `Assignment`, or why the row is rejected. Experiment and arm ids repeat on
  /// every row: `shared` hands out one string each instead of one allocation a row.
  static func row(_ cells: AppRowCSV.Cells, _ origin: Origin, _ shared: StringInterner) throws(RowRejection)
    -> Assignment
  {
    Assignment(
      userId: try cells.required(0), experimentId: shared.intern(try cells.requiredBytes(1)),
      armId: shared.intern(try cells.requiredBytes(2)), assignedAt: try cells.requiredTimestamp(3),
      origin: origin)
  }
}
