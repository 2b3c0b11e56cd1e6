import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconDemo

/// Chunked, parallel import of a whole demo world must give exactly what a sequential, line-by-line import
/// gives (the importers' own cases are in StoreReconImportersTests).
@Suite struct ParallelImportTests {
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
    let expected = try ImportComparison.sequential(files)
    #expect(!expected.chains.isEmpty && !expected.rejects.isEmpty)
    for (chunkBytes, threads) in [(1 << 24, 1), (8192, 3), (65_536, 2)] {
      let got = try ImportComparison.packed(files, chunkBytes: chunkBytes, threads: threads)
      #expect(got == expected, "chunks of \(chunkBytes) bytes on \(threads) threads")
    }
  }
}
