import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters
@testable import StoreReconAppRows
@testable import StoreReconDemo

/// The run's read-ahead: many inputs of a demo world through one ``ReadSchedule`` (chunks of later files
/// parsed while earlier ones are merged) must give exactly what reading them one by one gives; so must the
/// checksums (the fast path and the mapped reads on their own are checked in StoreReconImportersTests).
@Suite struct ReadScheduleTests {
  /// The Apple, Play and app-row files of a small demo world.
  static func world() throws -> (TempDir, [(String, String)]) {
    let dir = try TempDir()
    var options = DemoOptions()
    options.users = 300
    _ = try DemoWorld.generate(options, into: dir.url.path)
    let files = [
      ("apple", dir.path("exports/apple/transactions.jsonl")),
      ("sales", dir.path("exports/play/salesreport_202610.csv")),
      ("subscriptions", dir.path("exports/play/subscriptions.jsonl")),
      ("voided", dir.path("exports/play/voided.jsonl")),
      ("sales", dir.path("exports/play/salesreport_202611.csv")),
      ("assignments", dir.path("app/assignments.csv")),
    ]
    return (dir, files)
  }

  struct Outcome: Equatable {
    var counts: [InputCounts] = []
    var rejects: [Reject] = []
    var chains: [String] = []
    var assignments: [String] = []
  }

  /// Every file through one schedule of `workers` threads, `limit` chunks ahead, chunks of `chunkBytes`.
  static func scheduled(_ files: [(String, String)], chunkBytes: Int, workers: Int, limit: Int) throws
    -> Outcome
  {
    let schedule = ReadSchedule(workers: workers, limit: limit)
    var reads: [ScheduledRead] = []
    for (role, path) in files {
      let read: ScheduledRead
      switch role {
      case "apple":
        read = JSONLinesBatchImport.Source<AppStoreTransactionImporter.Packer>(
          path: path, displayName: role, settings: JWSVerifier(), chunkBytes: chunkBytes)
      case "subscriptions":
        read = JSONLinesBatchImport.Source<PlaySubscriptionImporter.Packer>(
          path: path, displayName: role, chunkBytes: chunkBytes)
      case "voided":
        read = JSONLinesBatchImport.Source<PlayVoidedPurchaseImporter.Packer>(
          path: path, displayName: role, chunkBytes: chunkBytes)
      case "sales":
        read = CSVChunkImport.Source<PlaySalesReportImporter.Packer>(
          path: path, displayName: role, chunkBytes: chunkBytes)
      default:
        read = CSVChunkImport.Source<AssignmentCSVReader.Packer>(
          path: path, displayName: role, chunkBytes: chunkBytes)
      }
      schedule.add(read)
      reads.append(read)
    }
    let builder = LedgerBuilder()
    let sink = RejectList()
    var outcome = Outcome()
    for (index, read) in reads.enumerated() {
      if let source = read as? JSONLinesBatchImport.Source<AppStoreTransactionImporter.Packer> {
        outcome.counts.append(try source.consume(rejects: sink, into: builder).counts)
      } else if let source = read as? JSONLinesBatchImport.Source<PlaySubscriptionImporter.Packer> {
        outcome.counts.append(try source.consume(rejects: sink, into: builder).counts)
      } else if let source = read as? JSONLinesBatchImport.Source<PlayVoidedPurchaseImporter.Packer> {
        outcome.counts.append(try source.consume(rejects: sink, into: builder).counts)
      } else if let source = read as? CSVChunkImport.Source<PlaySalesReportImporter.Packer> {
        outcome.counts.append(try PlaySalesReportImporter().read(source, rejects: sink, into: builder).counts)
      } else if let source = read as? CSVChunkImport.Source<AssignmentCSVReader.Packer> {
        outcome.counts.append(
          try AssignmentCSVReader().read(source, fileIndex: Int32(index), rejects: sink) {
            outcome.assignments.append(describe($0))
          })
      }
    }
    outcome.rejects = sink.rejects
    outcome.chains = ImportComparison.describe(builder.build(asOf: Fx.t, catalog: Catalog()))
    return outcome
  }

  static func describe(_ a: Assignment) -> String {
    "\(a.userId) \(a.experimentId) \(a.armId) \(a.assignedAt) \(a.origin.file):\(a.origin.line)"
  }

  /// The same files one by one, line by line, without a schedule.
  static func sequential(_ files: [(String, String)]) throws -> Outcome {
    let builder = LedgerBuilder()
    let sink = RejectList()
    var outcome = Outcome()
    for (index, (role, path)) in files.enumerated() {
      let importer: any StoreImporter
      switch role {
      case "apple": importer = AppStoreTransactionImporter()
      case "subscriptions": importer = PlaySubscriptionImporter()
      case "sales": importer = PlaySalesReportImporter()
      case "voided": importer = PlayVoidedPurchaseImporter()
      default:
        outcome.counts.append(
          try AssignmentCSVReader().read(
            path: path, displayName: role, fileIndex: Int32(index), rejects: sink
          ) {
            outcome.assignments.append(describe($0))
          })
        continue
      }
      outcome.counts.append(
        try importer.read(path: path, displayName: role, fileIndex: 0, rejects: sink) { builder.add($0) })
    }
    outcome.rejects = sink.rejects
    outcome.chains = ImportComparison.describe(builder.build(asOf: Fx.t, catalog: Catalog()))
    return outcome
  }

  @Test func oneScheduleOverManyFilesReadsAsOneByOne() throws {
    let (dir, files) = try Self.world()
    let expected = try Self.sequential(files)
    #expect(!expected.chains.isEmpty && !expected.rejects.isEmpty && !expected.assignments.isEmpty)
    for (chunkBytes, workers, limit) in [(1 << 24, 1, 1), (8192, 2, 5), (65_536, 3, 2), (4096, 2, 64)] {
      let got = try Self.scheduled(files, chunkBytes: chunkBytes, workers: workers, limit: limit)
      #expect(got == expected, "chunks of \(chunkBytes) bytes, \(workers) workers, \(limit) ahead")
    }
    _ = dir
  }

  @Test func aReadConsumedWithoutAScheduleGetsItsOwn() throws {
    let (dir, files) = try Self.world()
    let alone = JSONLinesBatchImport.Source<AppStoreTransactionImporter.Packer>(
      path: files[0].1, displayName: "apple", settings: JWSVerifier(), chunkBytes: 4096, checksums: true)
    let got = try alone.consume(rejects: RejectList(), into: LedgerBuilder())
    let expected = try AppStoreTransactionImporter().read(
      path: files[0].1, displayName: "apple", rejects: RejectList(), into: LedgerBuilder())
    #expect(got.counts == expected.counts && got.counts.read > 0)
    #expect(alone.fileChecksum()?.sha256 == FileDigest.of(path: files[0].1)?.sha256)
    _ = dir
  }

  @Test func aFailingFileStopsOnlyItself() throws {
    let (dir, files) = try Self.world()
    var withMissing = files
    withMissing.insert(("apple", dir.path("exports/apple/none.jsonl")), at: 1)
    let schedule = ReadSchedule(workers: 2, limit: 3)
    let missing = JSONLinesBatchImport.Source<AppStoreTransactionImporter.Packer>(
      path: withMissing[1].1, displayName: "none", settings: JWSVerifier())
    let first = JSONLinesBatchImport.Source<AppStoreTransactionImporter.Packer>(
      path: files[0].1, displayName: "apple", settings: JWSVerifier(), chunkBytes: 4096)
    let after = CSVChunkImport.Source<PlaySalesReportImporter.Packer>(
      path: files[1].1, displayName: "sales", chunkBytes: 4096)
    schedule.add(first)
    schedule.add(missing)
    schedule.add(after)
    let builder = LedgerBuilder()
    let sink = RejectList()
    #expect(try first.consume(rejects: sink, into: builder).counts.read > 0)
    #expect(throws: InputError.self) { try missing.consume(rejects: sink, into: builder) }
    let sales = try PlaySalesReportImporter().read(after, rejects: sink, into: builder)
    let alone = try PlaySalesReportImporter().read(
      path: files[1].1, displayName: "sales", rejects: RejectList(), into: LedgerBuilder())
    #expect(sales.counts == alone.counts && sales.counts.read > 0)
  }

  @Test func readsChecksumTheirFilesAsFileDigestDoes() throws {
    let (dir, files) = try Self.world()
    let bom = try dir.write(
      "bom.jsonl",
      bytes: [0xEF, 0xBB, 0xBF] + Array(try String(contentsOfFile: files[0].1, encoding: .utf8).utf8))
    let gz = dir.path("apple.jsonl.gz")
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
    gzip.arguments = ["-c", "gzip -c '\(files[0].1)' > '\(gz)'"]
    try gzip.run()
    gzip.waitUntilExit()
    for (chunkBytes, workers) in [(4096, 2), (1 << 20, 1)] {
      let schedule = ReadSchedule(workers: workers, limit: 3)
      var reads: [(ScheduledRead, String)] = []
      for path in [files[0].1, bom, gz, dir.path("missing.jsonl")] {
        let read = JSONLinesBatchImport.Source<AppStoreTransactionImporter.Packer>(
          path: path, displayName: "a", settings: JWSVerifier(), chunkBytes: chunkBytes, checksums: true)
        schedule.add(read)
        reads.append((read, path))
      }
      for (role, path) in files where role == "sales" || role == "assignments" {
        let read = CSVChunkImport.Source<PlaySalesReportImporter.Packer>(
          path: path, displayName: "s", chunkBytes: chunkBytes, checksums: true)
        schedule.add(read)
        reads.append((read, path))
      }
      let builder = LedgerBuilder()
      for (read, path) in reads {
        if let source = read as? JSONLinesBatchImport.Source<AppStoreTransactionImporter.Packer> {
          _ = try? source.consume(rejects: RejectList(), into: builder)
        } else if let source = read as? CSVChunkImport.Source<PlaySalesReportImporter.Packer> {
          _ = try? PlaySalesReportImporter().read(source, rejects: RejectList(), into: builder)
        }
        let got = read.fileChecksum()
        let expected = FileDigest.of(path: path)
        #expect(got?.bytes == expected?.bytes && got?.sha256 == expected?.sha256, "\(path)")
      }
    }
  }
}
