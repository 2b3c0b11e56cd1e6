package import StoreReconCore
package import StoreReconIO

/// Reads the credits contract from CSV: `credit_id, user_id, store, transaction_id, product_id, quantity,
/// credited_at, reversed_at` — the app's own ledger of consumable grants.
///
/// Required: `credit_id`, `user_id`, `store` (`app_store`, `play`, `stripe`), `transaction_id` (the
/// store's: Apple `transactionId`, Play order id), `product_id` and `quantity` (a whole number of units,
/// at least 1). `credited_at` NULL reads as "credited before T"; `reversed_at` NULL as never reversed.
package struct CreditCSVReader: AppRowReader {
  /// The contract's columns, in contract order.
  package static let columns = [
    "credit_id", "user_id", "store", "transaction_id", "product_id", "quantity", "credited_at", "reversed_at",
  ]

  /// Creates the reader.
  package init() {}

  /// Reads one credits CSV file.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink, emit: (CreditRow) -> Void
  ) throws(InputError) -> InputCounts {
    try AppRowCSV.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: CreditCSVReader.columns, emit: emit, map: CreditCSVReader.row)
  }

  /// Reads one credits CSV file, chunked by a ``ReadSchedule`` (its chunks parsed on all cores): the
  /// same rows, lines and rejects as ``read(path:displayName:fileIndex:rejects:emit:)``.
  package func read(
    _ source: CSVChunkImport.Source<Packer>, fileIndex: Int32, rejects: any RejectSink,
    emit: (CreditRow) -> Void
  ) throws(InputError) -> InputCounts {
    try source.consume(rejects: rejects) { rows, linesBefore in
      for var row in rows {
        row.origin = Origin(file: fileIndex, line: Int32(clamping: linesBefore + Int(row.origin.line)))
        emit(row)
      }
    }
  }

  /// Packs credit rows of one chunk.
  package struct Packer: CSVRecordPacker {
    let columns: [Int]

    package static func columns(_ header: CSVChunkImport.Header) throws(InputError) -> [Int] {
      try header.requireColumns(CreditCSVReader.columns)
    }

    package init(columns: [Int]) { self.columns = columns }

    package func makeOutput() -> [CreditRow] { [] }

    /// About one row per 120 bytes.
    package func reserve(_ rows: inout [CreditRow], bytes: Int) { rows.reserveCapacity(bytes / 120 + 16) }

    package mutating func pack(_ record: CSVRecord, into rows: inout [CreditRow]) throws(RowRejection) {
      let cells = AppRowCSV.Cells(record: record, columns: columns, names: CreditCSVReader.columns)
      rows.append(try CreditCSVReader.row(cells, Origin(file: -1, line: Int32(clamping: record.line))))
    }
  }

  /// Reads credit rows streamed from `source` (a query's CSV COPY output); lines are row numbers.
  package func read(
    source: any ByteSource, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (CreditRow) -> Void
  ) throws(InputError) -> InputCounts {
    try AppRowCSV.run(
      source: source, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: CreditCSVReader.columns, emit: emit, map: CreditCSVReader.row)
  }

  /// One row's cells as a ``CreditRow``, or why the row is rejected.
  static func row(_ cells: AppRowCSV.Cells, _ origin: Origin) throws(RowRejection) -> CreditRow {
    let creditId = try cells.required(0)
    let userId = try cells.required(1)
    let store = try cells.choice(2, as: Store.self)
    let transactionId = try cells.required(3)
    let productId = try cells.required(4)
    let text = try cells.required(5)
    guard let quantity = Int64(text), quantity > 0 else {
      throw RowRejection("quantity '\(RawText.truncated(text))' is not a whole number of at least 1")
    }
    let creditedAt = try cells.timestamp(6)
    let reversedAt = try cells.timestamp(7)
    if let creditedAt, let reversedAt, reversedAt < creditedAt {
      throw RowRejection("reversed_at \(reversedAt) is before credited_at \(creditedAt)")
    }
    return CreditRow(
      creditId: creditId, userId: userId, store: store, transactionId: transactionId, productId: productId,
      quantity: quantity, creditedAt: creditedAt, reversedAt: reversedAt, origin: origin)
  }
}
