import StoreReconPlatform
package import StoreReconCore
package import StoreReconIO

/// Reads the credentials contract from CSV: `store, store_key, user_id, linked_store_key, order_id, claimed_at`.
///
/// Required: `store` (`app_store`, `play` or `stripe`), `store_key`, `user_id`.
package struct CredentialCSVReader: AppRowReader {
  /// The contract's columns, in contract order.
  package static let columns = [
    "store", "store_key", "user_id", "linked_store_key", "order_id", "claimed_at",
  ]

  /// Creates the reader.
  package init() {}

  /// Reads one credentials CSV file.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink, emit: (Credential) -> Void
  ) throws(InputError) -> InputCounts {
    try AppRowCSV.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: CredentialCSVReader.columns, emit: emit, map: CredentialCSVReader.row)
  }

  /// Reads credentials rows streamed from `source` (a query's CSV COPY output); lines are row numbers.
  package func read(
    source: any ByteSource, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (Credential) -> Void
  ) throws(InputError) -> InputCounts {
    try AppRowCSV.run(
      source: source, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: CredentialCSVReader.columns, emit: emit, map: CredentialCSVReader.row)
  }

  /// One row's cells as `Credential`, or why the row is rejected.
  static func row(_ cells: AppRowCSV.Cells, _ origin: Origin) throws(RowRejection) -> Credential {
    Credential(
      store: try cells.choice(0, as: Store.self), storeKey: try cells.required(1),
      userId: try cells.required(2),
      linkedStoreKey: cells.optional(3), orderId: cells.optional(4), claimedAt: try cells.timestamp(5),
      origin: origin)
  }

  /// Reads one credentials CSV file into `table` (packed, as the run keeps them): in chunks on all
  /// cores for a plain file, with the same rows, rejects and line numbers as ``read(path:displayName:fileIndex:rejects:emit:)``.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    into table: inout PackedCredentials, keeps: ((String) -> Bool)? = nil,
    chunkBytes: Int = CSVChunkImport.chunkSize, threads: Int = Parallel.cores
  ) throws(InputError) -> InputCounts {
    let schedule = ReadSchedule(workers: threads)
    let source = CSVChunkImport.Source<Packer>(path: path, displayName: displayName, chunkBytes: chunkBytes)
    schedule.add(source)
    return try read(source, rejects: rejects, into: &table, keeps: keeps)
  }

  /// Reads one credentials CSV file, chunked by a ``ReadSchedule``, into `table`; with `keeps` (a run
  /// in passes), a row whose user it refuses is left out as it is read.
  package func read(
    _ source: CSVChunkImport.Source<Packer>, rejects: any RejectSink, into table: inout PackedCredentials,
    keeps: ((String) -> Bool)? = nil
  )
    throws(InputError) -> InputCounts
  {
    let pool = table.pool
    var packed = PackedCredentials(pool: pool)
    swap(&packed, &table)
    defer { swap(&packed, &table) }
    if keeps == nil { packed.reserve(AppRowCSV.estimatedRows(source.path)) }
    return try source.consume(rejects: rejects) { chunk, _ in
      // Keys and order ids were numbered in the chunk's own pool: renumber them in the table's.
      var map = [UInt32](repeating: UInt32.max, count: chunk.pool.count)
      func global(_ id: PackedID) -> PackedID {
        guard id.kind == .pooled else { return id }
        let local = Int(id.poolID)
        if map[local] == UInt32.max { map[local] = chunk.pool.withBytes(id.poolID) { pool.intern($0) } }
        return .pooled(map[local])
      }
      for r in chunk.rows where keeps?(r.userId) ?? true {
        packed.append(
          userId: r.userId, key: global(r.key), store: r.store, claimedAt: r.claimedAt,
          linked: global(r.linked),
          order: global(r.order))
      }
    }
  }

  /// Packs credential rows of one chunk, numbering keys and order ids in its own pool.
  package struct Packer: CSVRecordPacker {
    struct Row {
      var userId: String
      var key: PackedID
      var store: Store
      var claimedAt: Int64
      var linked: PackedID
      var order: PackedID
    }

    package struct Chunk {
      var rows: [Row] = []
      let pool = TextPool()
    }

    let columns: [Int]

    package static func columns(_ header: CSVChunkImport.Header) throws(InputError) -> [Int] {
      try header.requireColumns(CredentialCSVReader.columns)
    }

    package init(columns: [Int]) { self.columns = columns }

    package func makeOutput() -> Chunk { Chunk() }

    /// About one row per 80 bytes.
    package func reserve(_ chunk: inout Chunk, bytes: Int) { chunk.rows.reserveCapacity(bytes / 80 + 16) }

    package mutating func pack(_ record: CSVRecord, into chunk: inout Chunk) throws(RowRejection) {
      let cells = AppRowCSV.Cells(record: record, columns: columns, names: CredentialCSVReader.columns)
      let store = try cells.choice(0, as: Store.self)
      let key = PackedID.intern(try cells.requiredBytes(1), in: chunk.pool)
      let userId = String(decoding: try cells.requiredBytes(2), as: UTF8.self)
      let linked = cells.bytes(3)
      let order = cells.bytes(4)
      let claimedAt = try cells.timestampMs(5)
      chunk.rows.append(
        Row(
          userId: userId, key: key, store: store, claimedAt: claimedAt,
          linked: linked.isEmpty ? .absent : PackedID.intern(linked, in: chunk.pool),
          order: order.isEmpty ? .absent : PackedID.intern(order, in: chunk.pool)))
    }
  }
}
