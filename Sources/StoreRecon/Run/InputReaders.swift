/// Dispatches each planned input to the importer or app-row reader of its role.
enum InputReaders {
  static func read(
    _ input: ReconciliationRun.PlannedInput, fileIndex: Int32, rejects: any RejectSink, ledger: LedgerBuilder,
    rows: inout AppRowSet, report: inout InputReport
  ) throws(InputError) -> InputCounts {
    let packed: PackedImport?
    switch input.role {
    case "app_store.transactions":
      packed = try AppStoreTransactionImporter().read(
        path: input.path, displayName: input.display, rejects: rejects, into: ledger)
    case "play.sales":
      packed = try PlaySalesReportImporter().read(
        path: input.path, displayName: input.display, rejects: rejects, into: ledger)
    case "play.subscriptions":
      packed = try PlaySubscriptionImporter().read(
        path: input.path, displayName: input.display, rejects: rejects, into: ledger)
    case "play.voided":
      packed = try PlayVoidedPurchaseImporter().read(
        path: input.path, displayName: input.display, rejects: rejects, into: ledger)
    default: packed = nil
    }
    if let packed {
      report.firstAt = packed.firstAt
      report.lastAt = packed.lastAt
      return packed.counts
    }
    switch input.role {
    case "app.entitlements":
      if rows.entitlements.count == 0 { rows.entitlements = ledger.entitlementTable() }
      return try EntitlementCSVReader().read(
        path: input.path, displayName: input.display, fileIndex: fileIndex, rejects: rejects,
        into: &rows.entitlements)
    case "app.credentials":
      if rows.credentials.count == 0 { rows.credentials = ledger.credentialTable() }
      return try CredentialCSVReader().read(
        path: input.path, displayName: input.display, fileIndex: fileIndex, rejects: rejects,
        into: &rows.credentials)
    case "fx.rates":
      guard let reporting = input.reporting else {
        throw InputError.malformed(
          path: input.display, reason: "an FX table needs the config's reportingCurrency")
      }
      return try FXRateCSVReader(reporting: reporting).read(
        path: input.path, displayName: input.display, fileIndex: fileIndex, rejects: rejects
      ) { rows.fxRates.append($0) }
    case "app.assignments":
      return try AssignmentCSVReader().read(
        path: input.path, displayName: input.display, fileIndex: fileIndex, rejects: rejects
      ) { rows.assignments.append($0) }
    default:
      return try GoodwillCSVReader().read(
        path: input.path, displayName: input.display, fileIndex: fileIndex, rejects: rejects
      ) { rows.goodwill.append($0) }
    }
  }
}
