import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters
@testable import StoreReconAppRows
@testable import StoreReconPostgres
@testable import StoreReconReports
@testable import StoreReconMail
@testable import StoreReconDemo
@testable import StoreReconCLI

/// Chunked, parallel import into the packed ledger must give exactly what a sequential, line-by-line
/// import gives: the same chains, records, rejects, counts and line numbers.
@Suite struct ParallelImportTests {
  /// Every chain of a ledger as text (key, derived state, records), for comparison.
  static func describe(_ ledger: Ledger) -> [String] {
    ledger.chains.map { chain in
      let records = (chain.purchases + chain.refunds + chain.voids + (chain.status.map { [$0] } ?? [])).map {
        String(describing: $0)
      }
      return
        "\(chain.store) \(chain.key) \(String(describing: chain.paidThrough)) \(String(describing: chain.revocation)) "
        + "\(String(describing: chain.currentProduct)) \(chain.production) \(chain.pending) \(chain.paidCharges) "
        + "\(String(describing: chain.accountToken)) \(String(describing: chain.originalPurchaseAt)) "
        + records.joined(separator: "|")
    }
  }

  struct Outcome: Equatable {
    var counts: [InputCounts] = []
    var rejects: [Reject] = []
    var chains: [String] = []
  }

  /// Imports the Apple and Play JSON Lines of a world in chunks of `chunkBytes` on `threads` threads.
  static func packed(_ files: [(String, String)], chunkBytes: Int, threads: Int) throws -> Outcome {
    let builder = LedgerBuilder()
    let sink = RejectList()
    var outcome = Outcome()
    for (role, path) in files {
      let result: PackedImport
      switch role {
      case "apple":
        result = try AppStoreTransactionImporter().read(
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
  static func sequential(_ files: [(String, String)]) throws -> Outcome {
    let builder = LedgerBuilder()
    let sink = RejectList()
    var outcome = Outcome()
    for (role, path) in files {
      let importer: any StoreImporter
      switch role {
      case "apple": importer = AppStoreTransactionImporter()
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

  @Test func demoWorldImportsTheSameInParallelChunks() throws {
    let dir = try TempDir()
    var options = DemoOptions()
    options.users = 300
    _ = try DemoWorld.generate(options, into: dir.url.path)
    let files = [
      ("apple", dir.path("exports/apple/transactions.jsonl")),
      ("subscriptions", dir.path("exports/play/subscriptions.jsonl")),
      ("voided", dir.path("exports/play/voided.jsonl")),
      ("sales", dir.path("exports/play/salesreport_202610.csv")),
      ("sales", dir.path("exports/play/salesreport_202611.csv")),
    ]
    let expected = try Self.sequential(files)
    #expect(!expected.chains.isEmpty && !expected.rejects.isEmpty)
    for (chunkBytes, threads) in [(1 << 24, 1), (8192, 3), (65_536, 2)] {
      let got = try Self.packed(files, chunkBytes: chunkBytes, threads: threads)
      #expect(got == expected, "chunks of \(chunkBytes) bytes on \(threads) threads")
    }
  }

  @Test func linesAreSplitAndNumberedAsTheLineReaderDoes() throws {
    let dir = try TempDir()
    let good =
      #"{"originalTransactionId":"1","transactionId":"1","productId":"p","purchaseDate":1,"price":990,"currency":"USD"}"#
    let other =
      #"{"originalTransactionId":"2","transactionId":"3","productId":"p","purchaseDate":2,"price":990,"currency":"EUR"}"#
    let long =
      #"{"originalTransactionId":"4","transactionId":"4","productId":""# + String(repeating: "x", count: 5000)
      + #"","purchaseDate":3,"price":0,"currency":"USD"}"#
    let texts = [
      "\u{FEFF}" + good + "\n" + other + "\n",
      good + "\r\n\r\n  \n" + "not json\r\n" + other,
      "\n\n" + long + "\n" + good + "\n" + "{\"broken\n" + other + "\n",
      "",
      "   \n",
    ]
    for (n, text) in texts.enumerated() {
      let path = try dir.write("lines\(n).jsonl", text)
      let expected = try Self.sequential([("apple", path)])
      for (chunkBytes, threads) in [(3, 2), (64, 3), (100_000, 1)] {
        #expect(
          try Self.packed([("apple", path)], chunkBytes: chunkBytes, threads: threads) == expected,
          "text \(n)")
      }
    }
  }

  @Test func csvRecordsAreReadAsTheCSVReaderDoes() throws {
    let dir = try TempDir()
    let header =
      "Order Number,Order Charged Date,Order Charged Timestamp,Financial Status,Product Type,SKU ID,Currency of Sale,"
      + "Charged Amount,Taxes Collected,Base Plan ID,Note"
    func row(_ n: Int, _ note: String = "x", status: String = "Charged", amount: String = "4.99") -> String {
      "GPA.1234-5678-9012-\(10_000 + n)..\(n % 3),2026-10-01,\(1_790_000_000 + n),\(status),subscription,pro,EUR,"
        + "\(amount),0.80,monthly,\(note)"
    }
    let texts = [
      "\u{FEFF}" + header + "\r\n" + (0..<40).map { row($0) }.joined(separator: "\r\n") + "\r\n",
      header + "\n\n" + row(1, "\"two\nlines\"") + "\n   \n" + row(2, "\"a, b\"\"c\"") + "\n"
        + row(3, status: "Lost")
        + "\n" + row(4, amount: "4.999") + "\n" + "short,row\n" + row(5, "\"bad\"x") + "\n"
        + row(6, "\"open\n\n\nstill\"")
        + "\n" + row(7),
      "\n" + header + "\n" + row(1) + "\n" + row(2, "\"never closed") + "\n" + row(3) + "\n",
      "\"Order Number\",\"SKU ID\"\nGPA.1,pro\n",
      header + "\n",
      "",
    ]
    for (n, text) in texts.enumerated() {
      let path = try dir.write("sales\(n).csv", text)
      let expected = try? Self.sequential([("sales", path)])
      for (chunkBytes, threads) in [(5, 2), (64, 3), (300, 2), (1 << 20, 1)] {
        let got = try? Self.packed([("sales", path)], chunkBytes: chunkBytes, threads: threads)
        #expect(got == expected, "text \(n), chunks of \(chunkBytes) on \(threads)")
      }
    }
  }
}
