package import StoreReconCore
package import StoreReconIO
package import StoreReconImporters
package import StoreReconAppRows

/// Dispatches each planned input to the importer or app-row reader of its role.
package enum InputReaders {
  /// Adds the chunked read of `input` to `schedule` (so its chunks are parsed ahead, while the inputs
  /// before it are merged); `nil` for an input read on the calling thread (database queries, FX rates,
  /// goodwill).
  package static func prepare(_ input: ReconciliationRun.PlannedInput, on schedule: ReadSchedule)
    -> ScheduledRead?
  {
    guard input.query == nil else { return nil }
    let read: ScheduledRead
    switch input.role {
    case "app_store.transactions":
      read = JSONLinesBatchImport.Source<AppStoreTransactionImporter.Packer>(
        path: input.path, displayName: input.display,
        settings: AppStoreTransactionImporter.Settings(
          verifier: input.verifier ?? JWSVerifier(), window: input.window),
        checksums: true, snapshot: input.snapshot)
    case "play.sales":
      read = CSVChunkImport.Source<PlaySalesReportImporter.Packer>(
        path: input.path, displayName: input.display, settings: input.window, checksums: true)
    case "play.subscriptions":
      read = JSONLinesBatchImport.Source<PlaySubscriptionImporter.Packer>(
        path: input.path, displayName: input.display, settings: input.window, checksums: true)
    case "play.voided":
      read = JSONLinesBatchImport.Source<PlayVoidedPurchaseImporter.Packer>(
        path: input.path, displayName: input.display, settings: input.window, checksums: true)
    case "app.entitlements":
      read = CSVChunkImport.Source<EntitlementCSVReader.Packer>(
        path: input.path, displayName: input.display, checksums: true)
    case "app.credentials":
      read = CSVChunkImport.Source<CredentialCSVReader.Packer>(
        path: input.path, displayName: input.display, checksums: true)
    case "app.assignments":
      read = CSVChunkImport.Source<AssignmentCSVReader.Packer>(
        path: input.path, displayName: input.display, checksums: true)
    case "app.credits":
      read = CSVChunkImport.Source<CreditCSVReader.Packer>(
        path: input.path, displayName: input.display, checksums: true)
    default:
      return nil
    }
    schedule.add(read)
    return read
  }

  /// Reads `input` whatever its role: a store report into `storeReports`, anything else as ``read``.
  package static func read(
    _ input: ReconciliationRun.PlannedInput, fileIndex: Int32, rejects: any RejectSink, ledger: LedgerBuilder,
    rows: inout AppRowSet, storeReports: inout StoreReportRows, report: inout InputReport,
    prepared: ScheduledRead? = nil
  ) throws(InputError) -> InputCounts {
    var complete = true
    if let counts = try readStoreReport(
      input, fileIndex: fileIndex, rejects: rejects, into: &storeReports, complete: &complete)
    {
      report.incomplete = StoreReportPeriod.incompleteness(
        role: input.role, display: input.display, counts: counts, complete: complete)
      return counts
    }
    return try read(
      input, fileIndex: fileIndex, rejects: rejects, ledger: ledger, rows: &rows, report: &report,
      prepared: prepared)
  }

  package static func read(
    _ input: ReconciliationRun.PlannedInput, fileIndex: Int32, rejects: any RejectSink, ledger: LedgerBuilder,
    rows: inout AppRowSet, report: inout InputReport, prepared: ScheduledRead? = nil
  ) throws(InputError) -> InputCounts {
    let packed: PackedImport?
    switch input.role {
    case "app_store.transactions":
      packed = try readAppStore(input, rejects: rejects, ledger: ledger, report: &report, prepared: prepared)
    case "play.sales":
      if let source = prepared as? CSVChunkImport.Source<PlaySalesReportImporter.Packer> {
        packed = try PlaySalesReportImporter(window: input.window).read(
          source, rejects: rejects, into: ledger)
      } else {
        packed = try PlaySalesReportImporter(window: input.window).read(
          path: input.path, displayName: input.display, rejects: rejects, into: ledger)
      }
    case "play.subscriptions":
      if let source = prepared as? JSONLinesBatchImport.Source<PlaySubscriptionImporter.Packer> {
        packed = try source.consume(rejects: rejects, into: ledger)
      } else {
        packed = try PlaySubscriptionImporter(window: input.window).read(
          path: input.path, displayName: input.display, rejects: rejects, into: ledger)
      }
    case "play.voided":
      if let source = prepared as? JSONLinesBatchImport.Source<PlayVoidedPurchaseImporter.Packer> {
        packed = try source.consume(rejects: rejects, into: ledger)
      } else {
        packed = try PlayVoidedPurchaseImporter(window: input.window).read(
          path: input.path, displayName: input.display, rejects: rejects, into: ledger)
      }
    default: packed = nil
    }
    if let packed {
      report.firstAt = packed.firstAt
      report.lastAt = packed.lastAt
      return packed.counts
    }
    switch input.role {
    case "app.entitlements":
      if rows.entitlements.count == 0 { rows.entitlements = ledger.packedEntitlements() }
      return try readEntitlements(
        input, fileIndex: fileIndex, rejects: rejects, rows: &rows, prepared: prepared)
    case "app.credentials":
      if rows.credentials.count == 0 { rows.credentials = ledger.packedCredentials() }
      if let source = prepared as? CSVChunkImport.Source<CredentialCSVReader.Packer> {
        return try CredentialCSVReader().read(
          source, rejects: rejects, into: &rows.credentials, keeps: rows.keepsUser)
      }
      return try CredentialCSVReader().read(
        path: input.path, displayName: input.display, fileIndex: fileIndex, rejects: rejects,
        into: &rows.credentials, keeps: rows.keepsUser)
    case "fx.rates":
      guard let reporting = input.reporting else {
        throw InputError.malformed(
          path: input.display, reason: "an FX table needs the config's reportingCurrency")
      }
      return try FXRateCSVReader(reporting: reporting).read(
        path: input.path, displayName: input.display, fileIndex: fileIndex, rejects: rejects
      ) { rows.fxRates.append($0) }
    case "app.assignments":
      if let source = prepared as? CSVChunkImport.Source<AssignmentCSVReader.Packer> {
        return try AssignmentCSVReader().read(source, fileIndex: fileIndex, rejects: rejects) {
          rows.assignments.append($0)
        }
      }
      return try AssignmentCSVReader().read(
        path: input.path, displayName: input.display, fileIndex: fileIndex, rejects: rejects
      ) { rows.assignments.append($0) }
    case "app.credits":
      guard let source = prepared as? CSVChunkImport.Source<CreditCSVReader.Packer> else {
        return try readOtherAppRows(input, fileIndex: fileIndex, rejects: rejects, rows: &rows)
      }
      var credits = rows.credits ?? []
      defer { rows.credits = credits }
      return try CreditCSVReader().read(source, fileIndex: fileIndex, rejects: rejects) {
        rows.add(credit: $0, to: &credits)
      }
    default: return try readOtherAppRows(input, fileIndex: fileIndex, rejects: rejects, rows: &rows)
    }
  }

  /// Reads an entitlements CSV file into `rows`, one row per `entitlement_id` (docs/contracts.md#one-row-per-id).
  static func readEntitlements(
    _ input: ReconciliationRun.PlannedInput, fileIndex: Int32, rejects: any RejectSink, rows: inout AppRowSet,
    prepared: ScheduledRead?
  ) throws(InputError) -> InputCounts {
    if let source = prepared as? CSVChunkImport.Source<EntitlementCSVReader.Packer> {
      return try EntitlementCSVReader().read(
        source, fileIndex: fileIndex, rejects: rejects, into: &rows.entitlements, ids: rows.entitlementIds,
        keeps: rows.idRowsKeepUser)
    }
    return try EntitlementCSVReader().read(
      path: input.path, displayName: input.display, fileIndex: fileIndex, rejects: rejects,
      into: &rows.entitlements, ids: rows.entitlementIds, keeps: rows.idRowsKeepUser)
  }

  /// Reads the store's notification history: the lines first, then their JWS decoded on all cores;
  /// their transactions go to the ledger with the log's.
  package static func readHistory(
    _ input: ReconciliationRun.PlannedInput, fileIndex: Int32, rejects: any RejectSink, rows: inout AppRowSet
  ) throws(InputError) -> InputCounts {
    let verifier = input.verifier ?? JWSVerifier()
    let window = input.window
    // Decoded a batch of lines at a time, on all cores: the history is never held whole.
    var lines: [(String, Origin)] = []
    var delta = InputCounts()
    func decode() {
      ParallelDecode.run(
        lines, counts: &delta, displayName: input.display, rejects: rejects, origin: \.1, raw: \.0,
        makeDecoder: {
          let decoder = NotificationDecoder(verifier: verifier, window: window)
          return { (line: (String, Origin)) throws(RowRejection) -> DecodedNotification in
            try decoder.historyEntry(line.0, origin: line.1)
          }
        }
      ) { decoded in
        if let keeps = rows.keepsNotification, !keeps(decoded) { return }
        rows.notificationHistory.append(decoded.notification)
        if let record = decoded.record { rows.notificationRecords.append(record) }
      }
      lines.removeAll(keepingCapacity: true)
    }
    var counts = try JSONLinesImport.lines(
      path: input.path, displayName: input.display, fileIndex: fileIndex, rejects: rejects
    ) { (line, origin) throws(RowRejection) in
      lines.append((line, origin))
      if lines.count >= 32_768 { decode() }
    }
    decode()
    counts.accepted += delta.accepted
    counts.rejected += delta.rejected
    return counts
  }

  /// The notification log's reader, decoding each payload (and verifying Apple's JWS) with the input's
  /// verifier.
  package static func notificationReader(_ input: ReconciliationRun.PlannedInput) -> NotificationCSVReader {
    notificationReader(verifier: input.verifier ?? JWSVerifier(), window: input.window)
  }

  /// The notification log's reader, decoding each payload (and verifying Apple's JWS) with `verifier`
  /// (the run's, and the fetch's for the purchases the log names), its times within `window`.
  package static func notificationReader(verifier: JWSVerifier, window: StoreTimeWindow = .standalone)
    -> NotificationCSVReader
  {
    NotificationCSVReader {
      let decoder = NotificationDecoder(verifier: verifier, window: window)
      return { (row: NotificationRow) throws(RowRejection) -> DecodedNotification in try decoder.decode(row) }
    }
  }

  /// Moves the store records the notification log carried into the ledger builder (as records of the
  /// log's input, which the builder is reading).
  package static func moveNotificationRecords(_ rows: inout AppRowSet, into ledger: LedgerBuilder) {
    guard !rows.notificationRecords.isEmpty else { return }
    for record in rows.notificationRecords { ledger.add(record) }
    rows.notificationRecords = []
  }

  /// Reads a goodwill or (role `app.credits`) credits CSV file into `rows`.
  package static func readOtherAppRows(
    _ input: ReconciliationRun.PlannedInput, fileIndex: Int32, rejects: any RejectSink, rows: inout AppRowSet
  ) throws(InputError) -> InputCounts {
    switch input.role {
    case "app.notifications":
      return try notificationReader(input).read(
        path: input.path, displayName: input.display, fileIndex: fileIndex, rejects: rejects
      ) { rows.add($0) }
    case "app_store.notification_history":
      return try readHistory(input, fileIndex: fileIndex, rejects: rejects, rows: &rows)
    default: break
    }
    guard input.role == "app.credits" else {
      return try GoodwillCSVReader().read(
        path: input.path, displayName: input.display, fileIndex: fileIndex, rejects: rejects
      ) { rows.add(goodwill: $0) }
    }
    var credits = rows.credits ?? []
    defer { rows.credits = credits }
    return try CreditCSVReader().read(
      path: input.path, displayName: input.display, fileIndex: fileIndex, rejects: rejects
    ) { rows.add(credit: $0, to: &credits) }
  }

  /// Throws when the file of `input` clearly is another kind of input than its role reads (a Sales
  /// report under `appStore.transactions`, a JSON file as a CSV): such a file would reject every line.
  package static func checkRole(_ input: ReconciliationRun.PlannedInput) throws(InputError) {
    guard input.query == nil else { return }
    try InputRecognition.check(path: input.path, displayName: input.display, role: input.role)
  }

  /// Reads one of the stores' own money reports; `nil` for an input of another role. `complete` is
  /// false for a Financial report that ends before its trailer.
  package static func readStoreReport(
    _ input: ReconciliationRun.PlannedInput, fileIndex: Int32, rejects: any RejectSink,
    into rows: inout StoreReportRows, complete: inout Bool
  ) throws(InputError) -> InputCounts? {
    let (path, name) = (input.path, input.display)
    switch input.role {
    case "app_store.sales_reports":
      return try AppleSalesReportImporter().read(
        path: path, displayName: name, fileIndex: fileIndex, rejects: rejects, into: &rows)
    case "app_store.subscriber_reports":
      return try AppleSubscriberReportImporter().read(
        path: path, displayName: name, fileIndex: fileIndex, rejects: rejects, into: &rows)
    case "app_store.financial_reports":
      return try AppleFinancialReportImporter().read(
        path: path, displayName: name, fileIndex: fileIndex, rejects: rejects, into: &rows,
        complete: &complete)
    case "app_store.financial_summaries":
      return try AppleFinancialSummaryImporter().read(
        path: path, displayName: name, fileIndex: fileIndex, rejects: rejects, into: &rows)
    case "play.earnings":
      return try PlayEarningsReportImporter().read(
        path: path, displayName: name, fileIndex: fileIndex, rejects: rejects, into: &rows)
    case "stripe.reports":
      return try StripeBalanceReportImporter(window: input.window).read(
        path: path, displayName: name, fileIndex: fileIndex, rejects: rejects, into: &rows)
    default:
      return nil
    }
  }

  /// Reads App Store transactions (their chunks parsed ahead when `prepared`); notes in `report` how
  /// signatures were treated and how many accepted lines no signature was verified for.
  package static func readAppStore(
    _ input: ReconciliationRun.PlannedInput, rejects: any RejectSink, ledger: LedgerBuilder,
    report: inout InputReport, prepared: ScheduledRead?
  ) throws(InputError) -> PackedImport {
    let verifier = input.verifier ?? JWSVerifier()
    let packed: PackedImport
    if let source = prepared as? JSONLinesBatchImport.Source<AppStoreTransactionImporter.Packer> {
      packed = try source.consume(rejects: rejects, into: ledger)
    } else {
      packed = try AppStoreTransactionImporter(verifier: verifier, window: input.window).read(
        path: input.path, displayName: input.display, rejects: rejects, into: ledger)
    }
    report.signatures =
      verifier.mode.rawValue + (verifier.trustsTestRoot && verifier.mode != .off ? " + test root" : "")
    report.unverified = packed.unverified
    report.unpriced = packed.unpriced
    return packed
  }
}
