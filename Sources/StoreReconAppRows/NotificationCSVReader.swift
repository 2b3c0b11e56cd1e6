package import StoreReconCore
package import StoreReconIO

/// Reads the notifications contract from CSV: `store, notification_id, received_at, processed_at,
/// payload` — the app's server's log of the store notifications it received (docs/contracts.md).
///
/// Required: `store` (`app_store`, `play` or `stripe`), `notification_id`, `received_at` and `payload`;
/// `processed_at` NULL = not processed. The payload is decoded by `decode` (the store formats live in
/// the importers, which this layer does not see): a payload that does not decode, or does not verify,
/// rejects its row with the reason.
package struct NotificationCSVReader: AppRowReader {
  /// Turns a row into its decoded notification, or says why the row is rejected.
  package typealias Decode = (NotificationRow) throws(RowRejection) -> DecodedNotification

  /// The contract's columns, in contract order.
  package static let columns = ["store", "notification_id", "received_at", "processed_at", "payload"]

  /// Makes a decoder; called once per thread that decodes (a JWS checker's memo is per thread).
  let makeDecoder: () -> Decode

  /// A reader that rejects every row: for a caller that gave no decoder (a programming error, said in
  /// every row's reason rather than as a crash).
  package static var undecoded: NotificationCSVReader {
    NotificationCSVReader {
      { (_: NotificationRow) throws(RowRejection) -> DecodedNotification in
        throw RowRejection("the run has no notification decoder (internal error)")
      }
    }
  }

  /// Creates the reader with the maker of payload decoders.
  package init(decoder makeDecoder: @escaping () -> Decode) { self.makeDecoder = makeDecoder }

  /// Reads one notifications CSV file: the rows first, then their payloads decoded on all cores.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (DecodedNotification) -> Void
  ) throws(InputError) -> InputCounts {
    var batch = DecodeBatch()
    var counts = try AppRowCSV.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: NotificationCSVReader.columns,
      emit: {
        batch.add($0) { rows, delta in
          decode(rows, counts: &delta, displayName: displayName, rejects: rejects, emit: emit)
        }
      },
      map: NotificationCSVReader.row)
    batch.finish(into: &counts) { rows, delta in
      decode(rows, counts: &delta, displayName: displayName, rejects: rejects, emit: emit)
    }
    return counts
  }

  /// Reads notification rows streamed from `source` (a query's CSV COPY output); lines are row numbers.
  package func read(
    source: any ByteSource, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (DecodedNotification) -> Void
  ) throws(InputError) -> InputCounts {
    var batch = DecodeBatch()
    var counts = try AppRowCSV.run(
      source: source, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: NotificationCSVReader.columns,
      emit: {
        batch.add($0) { rows, delta in
          decode(rows, counts: &delta, displayName: displayName, rejects: rejects, emit: emit)
        }
      },
      map: NotificationCSVReader.row)
    batch.finish(into: &counts) { rows, delta in
      decode(rows, counts: &delta, displayName: displayName, rejects: rejects, emit: emit)
    }
    return counts
  }

  func decode(
    _ rows: [NotificationRow], counts: inout InputCounts, displayName: String, rejects: any RejectSink,
    emit: (DecodedNotification) -> Void
  ) {
    ParallelDecode.run(
      rows, counts: &counts, displayName: displayName, rejects: rejects, origin: \.origin,
      raw: { "\($0.store.rawValue),\($0.notificationId),\($0.receivedAt),\($0.payload)" },
      makeDecoder: makeDecoder, emit: emit)
  }

  /// Notification rows waiting to be decoded: decoded on all cores a batch at a time, so that a
  /// large log is never held whole (its payloads are most of its bytes).
  struct DecodeBatch {
    static let rows = 32_768
    var rows: [NotificationRow] = []
    /// What decoding took back from the accepted rows (and rejected), so far.
    var delta = InputCounts()

    mutating func add(_ row: NotificationRow, decode: ([NotificationRow], inout InputCounts) -> Void) {
      rows.append(row)
      if rows.count >= DecodeBatch.rows {
        decode(rows, &delta)
        rows.removeAll(keepingCapacity: true)
      }
    }

    mutating func finish(
      into counts: inout InputCounts, decode: ([NotificationRow], inout InputCounts) -> Void
    ) {
      if !rows.isEmpty { decode(rows, &delta) }
      rows = []
      counts.accepted += delta.accepted
      counts.rejected += delta.rejected
    }
  }

  /// Reads one notifications CSV file's rows without decoding their payloads (`storerecon db load`
  /// stores them as they are; the run decodes them when it reads them back).
  package static func readRows(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (NotificationRow) -> Void
  ) throws(InputError) -> InputCounts {
    try AppRowCSV.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects,
      names: NotificationCSVReader.columns, emit: emit, map: NotificationCSVReader.row)
  }

  /// One row's cells as a ``NotificationRow``, or why the row is rejected.
  static func row(_ cells: AppRowCSV.Cells, _ origin: Origin) throws(RowRejection) -> NotificationRow {
    let store = try cells.choice(0, as: Store.self)
    let id = try cells.required(1)
    let receivedAt = try cells.requiredTimestamp(2)
    let processedAt = try cells.timestamp(3)
    if let processedAt, processedAt < receivedAt {
      throw RowRejection("processed_at \(processedAt) is before received_at \(receivedAt)")
    }
    let payload = try cells.required(4)
    return NotificationRow(
      store: store, notificationId: id, receivedAt: receivedAt, processedAt: processedAt, payload: payload,
      origin: origin)
  }
}
