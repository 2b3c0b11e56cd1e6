package import StoreReconCore
import StoreReconIO
import StoreReconImporters

/// The same store exports imported two ways, for tests that compare them: in parallel chunks into the
/// packed ledger (``packed(_:chunkBytes:threads:)``), and line by line through ``LedgerBuilder/add(_:)``
/// (``sequential(_:)``). Files are (role, path) pairs; the role is `apple`, `subscriptions`, `sales` or
/// `voided`.
package enum ImportComparison {
  /// The comparison is of parsing: App Store signatures are not checked (`off`), so that JWS lines
  /// with made-up signatures are read both ways (JWSVerificationTests checks signatures).
  static let verifier = JWSVerifier(mode: .off)

  /// Every chain of a ledger as text (key, derived state, records), for comparison.
  package static func describe(_ ledger: Ledger) -> [String] {
    ledger.chains.map { chain in
      let records = (chain.purchases + chain.refunds + chain.voids + (chain.status.map { [$0] } ?? [])).map {
        String(describing: $0)
      }
      return
        "\(chain.store) \(chain.key) \(String(describing: chain.paidThrough)) \(String(describing: chain.revocation)) "
        + "\(String(describing: chain.currentProduct)) \(chain.production) \(chain.pending) \(chain.paidCharges) "
        + "\(String(describing: chain.accountToken)) \(String(describing: chain.originalPurchaseAt)) "
        + "\(String(describing: chain.commitment)) "
        + records.joined(separator: "|")
    }
  }

  /// What an import gave: counts per file, the rejects, and every chain as ``describe(_:)`` writes it.
  package struct Outcome: Equatable {
    package var counts: [InputCounts] = []
    package var rejects: [Reject] = []
    package var chains: [String] = []
  }

  /// Imports the Apple and Play JSON Lines of a world in chunks of `chunkBytes` on `threads` threads.
  package static func packed(_ files: [(String, String)], chunkBytes: Int, threads: Int) throws -> Outcome {
    let builder = LedgerBuilder()
    let sink = RejectList()
    var outcome = Outcome()
    for (role, path) in files {
      let result: PackedImport
      switch role {
      case "apple":
        result = try AppStoreTransactionImporter(verifier: verifier).read(
          path: path, displayName: role, rejects: sink, into: builder, chunkBytes: chunkBytes,
          threads: threads)
      case "subscriptions":
        result = try PlaySubscriptionImporter().read(
          path: path, displayName: role, rejects: sink, into: builder, chunkBytes: chunkBytes,
          threads: threads)
      case "sales":
        result = try PlaySalesReportImporter().read(
          path: path, displayName: role, rejects: sink, into: builder, chunkBytes: chunkBytes,
          threads: threads)
      default:
        result = try PlayVoidedPurchaseImporter().read(
          path: path, displayName: role, rejects: sink, into: builder, chunkBytes: chunkBytes,
          threads: threads)
      }
      outcome.counts.append(result.counts)
    }
    outcome.rejects = sink.rejects
    outcome.chains = describe(builder.build(asOf: Fx.t, catalog: Catalog()))
    return outcome
  }

  /// The same files through the line-by-line importers and ``LedgerBuilder/add(_:)``.
  package static func sequential(_ files: [(String, String)]) throws -> Outcome {
    let builder = LedgerBuilder()
    let sink = RejectList()
    var outcome = Outcome()
    for (role, path) in files {
      let importer: any StoreImporter
      switch role {
      case "apple": importer = AppStoreTransactionImporter(verifier: verifier)
      case "subscriptions": importer = PlaySubscriptionImporter()
      case "sales": importer = PlaySalesReportImporter()
      default: importer = PlayVoidedPurchaseImporter()
      }
      outcome.counts.append(
        try importer.read(path: path, displayName: role, fileIndex: 0, rejects: sink) { builder.add($0) })
    }
    outcome.rejects = sink.rejects
    outcome.chains = describe(builder.build(asOf: Fx.t, catalog: Catalog()))
    return outcome
  }
}
