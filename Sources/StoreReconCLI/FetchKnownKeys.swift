import StoreReconCore
import StoreReconAppRows
import StoreReconIO
import StoreReconFetch
import StoreReconPostgres
package import StoreReconRun

/// The store keys the app's own rows know, for `storerecon fetch`: App Store entitlements' `store_key`
/// (source `app_store`), credentials' `store_key` (store `app_store`) and the purchases the app's
/// notification log names (its decoded payloads' `originalTransactionId`), and the same for Play (purchase
/// tokens) — read with the run's readers from the config's CSV files, or from PostgreSQL through the
/// entitlements, credentials and (as the run reads it: `app.notifications` set) notifications contract
/// queries when the config has `app.database` (a rejected row adds nothing). A purchase nobody claimed is known only
/// from the store's notifications.
enum FetchKnownKeys {
  /// The keys of the config's entitlements and credentials (none when it names none).
  static func read(_ config: RunConfig) throws(RunError) -> KnownKeys {
    let verifier = try config.signatureVerifier()
    if let database = config.database {
      return try read(
        database: database, queries: config.queries, notifications: config.readsNotifications,
        verifier: verifier)
    }
    var known = KnownKeys()
    let rejects = RejectList()
    if let path = config.entitlements {
      let full = config.resolve(path)
      do {
        _ = try EntitlementCSVReader().read(path: full, displayName: path, fileIndex: 0, rejects: rejects) {
          row in
          if let store = row.source.store, let key = row.storeKey { known.add(key, for: store) }
        }
      } catch {
        throw failure(error)
      }
    }
    if let path = config.credentials {
      let full = config.resolve(path)
      do {
        _ = try CredentialCSVReader().read(path: full, displayName: path, fileIndex: 1, rejects: rejects) {
          row in
          known.add(row.storeKey, for: row.store)
          // A Play credential's older purchase (upgrade, resubscription) is a purchase token to ask about too.
          if let linked = row.linkedStoreKey { known.add(linked, for: row.store) }
        }
      } catch {
        throw failure(error)
      }
    }
    if let path = config.notifications {
      do {
        _ = try InputReaders.notificationReader(verifier: verifier).read(
          path: config.resolve(path), displayName: path, fileIndex: 2, rejects: rejects
        ) { known.add($0.notification) }
      } catch {
        throw failure(error)
      }
    }
    return known
  }

  /// The keys of the entitlements, credentials and notifications contract queries, in one read-only
  /// snapshot.
  static func read(
    database uri: String, queries folder: String?, notifications: Bool, verifier: JWSVerifier
  ) throws(RunError) -> KnownKeys {
    let queries = try viaDatabase { () throws(DatabaseError) in
      try QueryFolder.contractQueries(directory: folder, optional: notifications ? [.notifications] : [])
        .filter {
          $0.contract == .entitlements || $0.contract == .credentials || $0.contract == .notifications
        }
    }
    let connection = try viaDatabase { () throws(DatabaseError) in try PostgresConnection.open(uri) }
    try viaDatabase { () throws(DatabaseError) in
      try DatabaseAppRows.checkContracts(queries, connection: connection)
    }
    var known = KnownKeys()
    let rejects = RejectList()
    for (index, query) in queries.enumerated() {
      let source: PostgresCopyOutSource
      do {
        try connection.beginReadOnlySnapshot(.standard)
        source = try connection.copyOut(query.copyStatement, displayName: query.displayName)
      } catch {
        throw RunError(error.databaseError(query.displayName))
      }
      do {
        if query.contract == .entitlements {
          _ = try EntitlementCSVReader().read(
            source: source, displayName: query.displayName, fileIndex: Int32(index), rejects: rejects
          ) { row in
            if let store = row.source.store, let key = row.storeKey { known.add(key, for: store) }
          }
        } else if query.contract == .notifications {
          _ = try InputReaders.notificationReader(verifier: verifier).read(
            source: source, displayName: query.displayName, fileIndex: Int32(index), rejects: rejects
          ) { known.add($0.notification) }
        } else {
          _ = try CredentialCSVReader().read(
            source: source, displayName: query.displayName, fileIndex: Int32(index), rejects: rejects
          ) { row in
            known.add(row.storeKey, for: row.store)
            if let linked = row.linkedStoreKey { known.add(linked, for: row.store) }
          }
        }
      } catch {
        throw failure(error)
      }
    }
    do {
      try connection.endReadOnlySnapshot()
    } catch {
      throw RunError(error.databaseError("ending the contract queries' read-only transaction"))
    }
    return known
  }

  /// A file that is not there is missing input (66); one that does not read, bad data (65).
  static func failure(_ error: InputError) -> RunError {
    if case .notFound = error { return RunError(.missingInput, "fetch: app rows \(error)") }
    return RunError(.dataError, "fetch: app rows \(error)")
  }
}

extension KnownKeys {
  /// Adds the purchase a notification names (none for a test notification).
  fileprivate mutating func add(_ notification: StoreNotification) {
    if let key = notification.chainKey { add(key, for: notification.store) }
  }
}
