import StoreReconPlatform
package import StoreReconCore
package import StoreReconIO

/// Google Play voided purchases as JSON Lines: each line a `VoidedPurchase` (reference §4.3).
///
/// Each line becomes a `void` record keyed by its purchase token (or, without one, by its order id
/// without `..N`); the order id as written is the transaction id, so a voided renewal is identifiable.
package struct PlayVoidedPurchaseImporter: StoreImporter {
  /// The span a timestamp must fall in (``StoreTimeWindow``, from the run's T).
  package let window: StoreTimeWindow

  /// Creates the importer reading timestamps within `window`.
  package init(window: StoreTimeWindow = .standalone) { self.window = window }

  /// Reads one JSON Lines file of voided purchases.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (StoreTransaction) -> Void
  ) throws(InputError) -> InputCounts {
    try JSONLinesImport.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects, emit: emit
    ) { (line, origin) throws(RowRejection) -> StoreTransaction in
      try PlayVoidedPurchaseImporter.transaction(
        from: try JSONLinesImport.parse(line), origin: origin, window: window)
    }
  }

  /// Reads one JSON Lines file of voided purchases straight into `builder`.
  package func read(
    path: String, displayName: String, rejects: any RejectSink, into builder: LedgerBuilder,
    chunkBytes: Int = JSONLinesBatchImport.chunkSize, threads: Int = Parallel.cores
  ) throws(InputError) -> PackedImport {
    try JSONLinesBatchImport.run(
      Packer.self, settings: window, path: path, displayName: displayName, rejects: rejects, into: builder,
      chunkBytes: chunkBytes,
      threads: threads)
  }

  /// Maps one `VoidedPurchase` to a void record, its times within `window`.
  package static func transaction(
    from voided: JSONValue, origin: Origin, window: StoreTimeWindow = .standalone
  ) throws(RowRejection) -> StoreTransaction {
    guard case .object = voided else {
      throw RowRejection("expected a voided-purchase object, found \(voided.brief)")
    }
    let token = try voided.optionalText("purchaseToken")
    // The order says which charge (a one-time purchase, a subscription or a single renewal) was voided:
    // without it the void cannot be put on a charge.
    let orderId = try voided.requiredText("orderId")
    let chainKey = token ?? PlayOrderId.base(orderId)
    let transactionId = orderId
    let at = try voided.requiredMillis("voidedTimeMillis", within: window)
    var record = StoreTransaction(
      store: .play, kind: .void, chainKey: chainKey, transactionId: transactionId, productId: "", at: at,
      origin: origin)
    record.purchaseToken = token
    record.originalAt = try voided.optionalMillis("purchaseTimeMillis", within: window)
    if let reason = try voided.optionalInt64("voidedReason") {
      guard let small = Int(exactly: reason) else {
        throw RowRejection("voidedReason '\(reason)' is out of range")
      }
      record.revocationReason = small
    }
    return record
  }
}
