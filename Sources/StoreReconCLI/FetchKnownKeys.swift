import StoreReconCore
import StoreReconAppRows
import StoreReconIO
import StoreReconFetch

/// The store keys the app's own rows know, for `storerecon fetch`: App Store entitlements' `store_key`
/// (source `app_store`) and credentials' `store_key` (store `app_store`), and the same for Play — read
/// from the config's CSV files with the run's readers (a rejected row adds nothing).
enum FetchKnownKeys {
  /// The keys of the config's entitlements and credentials files (none when it names none).
  static func read(_ config: RunConfig) throws(RunError) -> KnownKeys {
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
    return known
  }

  /// A file that is not there is missing input (66); one that does not read, bad data (65).
  static func failure(_ error: InputError) -> RunError {
    if case .notFound = error { return RunError(.missingInput, "fetch: app rows \(error)") }
    return RunError(.dataError, "fetch: app rows \(error)")
  }
}
