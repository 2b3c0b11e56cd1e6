import StoreReconPlatform
package import StoreReconCore
package import StoreReconIO

/// Reads the entitlements contract from CSV: `entitlement_id, user_id, product_id, source, store_key,
/// status, starts_at, expires_at, updated_at`.
///
/// Required: `entitlement_id`, `user_id`, `product_id`, `source` and `status` (each one of its enum
/// values); `expires_at` NULL means no end.
package struct EntitlementCSVReader: AppRowReader {
  /// The contract's columns, in contract order.
  package static let columns = [
    "entitlement_id", "user_id", "product_id", "source", "store_key", "status", "starts_at", "expires_at",
    "updated_at",
  ]

  /// Creates the reader.
  package init() {}

  /// Reads one entitlements CSV file.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink, emit: (Entitlement) -> Void
  ) throws(InputError) -> InputCounts {
    try AppRowCSV.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: EntitlementCSVReader.columns, emit: emit, map: EntitlementCSVReader.row)
  }

  /// Reads entitlements rows streamed from `source` (a query's CSV COPY output); lines are row numbers.
  package func read(
    source: any ByteSource, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (Entitlement) -> Void
  ) throws(InputError) -> InputCounts {
    try AppRowCSV.run(
      source: source, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: EntitlementCSVReader.columns, emit: emit, map: EntitlementCSVReader.row)
  }

  /// One row's cells as `Entitlement`, or why the row is rejected.
  static func row(_ cells: AppRowCSV.Cells, _ origin: Origin) throws(RowRejection) -> Entitlement {
    Entitlement(
      entitlementId: try cells.required(0), userId: try cells.required(1), productId: try cells.required(2),
      source: try cells.choice(3, as: EntitlementSource.self), storeKey: cells.optional(4),
      status: try cells.choice(5, as: EntitlementStatus.self), startsAt: try cells.timestamp(6),
      expiresAt: try cells.timestamp(7), updatedAt: try cells.timestamp(8), origin: origin)
  }

  /// Reads one entitlements CSV file into `table` (packed, as the run keeps them): in chunks on all
  /// cores for a plain file, with the same rows, rejects and line numbers as ``read(path:displayName:fileIndex:rejects:emit:)``.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    into table: inout PackedEntitlements, ids: EntitlementIds? = nil, keeps: ((String) -> Bool)? = nil,
    chunkBytes: Int = CSVChunkImport.chunkSize,
    threads: Int = Parallel.cores
  ) throws(InputError) -> InputCounts {
    let schedule = ReadSchedule(workers: threads)
    let source = CSVChunkImport.Source<Packer>(path: path, displayName: displayName, chunkBytes: chunkBytes)
    schedule.add(source)
    return try read(source, fileIndex: fileIndex, rejects: rejects, into: &table, ids: ids, keeps: keeps)
  }

  /// Reads one entitlements CSV file, chunked by a ``ReadSchedule``, into `table`; with `ids`, a row
  /// whose `entitlement_id` was read before is left out and recorded there (docs/contracts.md#one-row-per-id).
  /// With `keeps` (a run in passes), a row whose user it refuses is left out as it is read, its id
  /// still recorded in `ids`.
  package func read(
    _ source: CSVChunkImport.Source<Packer>, fileIndex: Int32 = -1, rejects: any RejectSink,
    into table: inout PackedEntitlements, ids: EntitlementIds? = nil, keeps: ((String) -> Bool)? = nil
  )
    throws(InputError) -> InputCounts
  {
    let pool = table.pool
    let products = table.products
    var rows: [PackedEntitlements.Row] = []
    swap(&rows, &table.rows)
    defer { swap(&rows, &table.rows) }
    if keeps == nil { rows.reserveCapacity(rows.count + AppRowCSV.estimatedRows(source.path)) }
    return try source.consume(rejects: rejects) { chunk, linesBefore in
      // Keys and product names were numbered in the chunk's own pools: renumber them in the table's.
      var keys = [UInt32](repeating: UInt32.max, count: chunk.pool.count)
      let names = chunk.products.names.map { products.name($0) }
      for (i, var row) in chunk.rows.enumerated() {
        let kept = keeps?(row.userId) ?? true
        if !kept {
          // Another lineage's row: only its id is recorded (a later row repeating it is left out too).
          if let ids {
            let line = Int32(clamping: linesBefore + Int(chunk.lines[i]))
            ids.recordDropped(id: row.entitlementId, origin: Origin(file: fileIndex, line: line))
          }
          continue
        }
        if row.key.kind == .pooled {
          let local = Int(row.key.poolID)
          if keys[local] == UInt32.max {
            keys[local] = chunk.pool.withBytes(row.key.poolID) { pool.intern($0) }
          }
          row.key = .pooled(keys[local])
        }
        row.product = names[Int(row.product)]
        if let ids {
          let line = Int32(clamping: linesBefore + Int(chunk.lines[i]))
          ids.append(row, origin: Origin(file: fileIndex, line: line), to: &rows)
        } else {
          rows.append(row)
        }
      }
    }
  }

  /// Packs entitlement rows of one chunk, numbering keys and product names in its own pools.
  package struct Packer: CSVRecordPacker {
    package struct Chunk {
      var rows: [PackedEntitlements.Row] = []
      /// Each row's line in the chunk (1 = its first).
      var lines: [Int32] = []
      let pool = TextPool()
      let products = ProductNames()
    }

    let columns: [Int]

    package static func columns(_ header: CSVChunkImport.Header) throws(InputError) -> [Int] {
      try header.requireColumns(EntitlementCSVReader.columns)
    }

    package init(columns: [Int]) { self.columns = columns }

    package func makeOutput() -> Chunk { Chunk() }

    /// About one row per 150 bytes.
    package func reserve(_ chunk: inout Chunk, bytes: Int) { chunk.rows.reserveCapacity(bytes / 150 + 16) }

    package mutating func pack(_ record: CSVRecord, into chunk: inout Chunk) throws(RowRejection) {
      let cells = AppRowCSV.Cells(record: record, columns: columns, names: EntitlementCSVReader.columns)
      let entitlementId = String(decoding: try cells.requiredBytes(0), as: UTF8.self)
      let userId = String(decoding: try cells.requiredBytes(1), as: UTF8.self)
      let product = chunk.products.name(try cells.requiredBytes(2))
      let source = try cells.choice(3, as: EntitlementSource.self)
      let keyBytes = cells.bytes(4)
      let key = keyBytes.isEmpty ? PackedID.absent : PackedID.intern(keyBytes, in: chunk.pool)
      let status = try cells.choice(5, as: EntitlementStatus.self)
      let startsAt = try cells.timestampMs(6)
      let expiresAt = try cells.timestampMs(7)
      _ = try cells.timestampMs(8)  // updated_at: checked, not kept
      chunk.rows.append(
        PackedEntitlements.Row(
          entitlementId: entitlementId, userId: userId, key: key, product: product, startsAt: startsAt,
          expiresAt: expiresAt, source: source, status: status))
      chunk.lines.append(Int32(clamping: record.line))
    }
  }
}
