import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconDemo
@testable import StoreReconCLI
@testable import StoreReconRun

/// The engine's path of a partitioned run (docs/partitions.md#the-worker-protocol), driven here as an
/// engine would: plan, tag the keyed inputs' lines, route them by partition (in any order), pipe each
/// partition's lines through the worker, merge. The merge reads only the shared inputs again.
@Suite(.serialized) struct WorkerProtocolTests {
  /// The worker's stdin for each of `count` partitions, the tagged lines routed as an engine would
  /// (`*` to every partition), each partition's lines in reverse order.
  static func routed(
    _ config: String, _ date: CivilDate, keymap: String, count: Int, reversed: Bool = true,
    minimumKeyed: Int = 5
  ) throws -> [[UInt8]] {
    let request = ReconciliationRun.Request(configPath: config, date: date, history: false)
    let plan = try ReconciliationRun.plan(request, progress: MemoryProgress())
    let planLines = plan.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    #expect(planLines.first == WorkerLines.planHeader && planLines.last == "end")
    let digest = try #require(planLines.dropFirst().first?.split(separator: "\t").last.map(String.init))
    let keyed = planLines.compactMap { line -> Int? in
      let f = line.split(separator: "\t")
      return f.count >= 4 && f[0] == "I" && f[3] == "keyed" ? Int(f[1]) : nil
    }
    // Transactions, subscriptions, voided, entitlements, credentials, and the notification log and
    // history where the world has them.
    let roles = planLines.filter { $0.hasPrefix("I\t") }.map { $0.split(separator: "\t")[2] }
    #expect(keyed.count == roles.filter { ReconciliationRun.engineKeyedRoles.contains(String($0)) }.count)
    #expect(keyed.count >= minimumKeyed)
    let setup = try ReconciliationRun.setUp(request, progress: MemoryProgress())
    let (map, _) = try ReconciliationRun.readKeymap(keymap)
    var tagged: [UInt8] = []
    for index in keyed {
      try ReconciliationRun.tag(index, setup: setup, keymap: map, count: count) { tagged += $0 }
    }
    var shares = [[ArraySlice<UInt8>]](repeating: [], count: count)
    for line in tagged.split(separator: 0x0A) {
      let f = line.split(separator: 0x09, maxSplits: 2)
      let target = String(decoding: f[1], as: UTF8.self)
      if target == "*" {
        for p in 0..<count { shares[p].append(f[2]) }
      } else {
        shares[try #require(Int(target))].append(f[2])
      }
    }
    return shares.enumerated().map { p, lines in
      var bytes = Array("\(WorkerLines.header)\npartition\t\(p)\t\(count)\ninputs\t\(digest)\n".utf8)
      for l in reversed ? lines.reversed() : lines { bytes += l + [0x0A] }
      return bytes + Array("end\n".utf8)
    }
  }

  /// Runs the workers over `stdins`, writes their partials into `dir/<label>/p<i>`, merges into
  /// `dir/<label>/merged`.
  static func workAndMerge(
    _ config: String, _ date: CivilDate, keymap: String, stdins: [[UInt8]], in dir: TempDir, label: String,
    chunk: Int = Int.max, minimumKeyed: Int = 5
  ) throws {
    var folders: [String] = []
    for (p, stdin) in stdins.enumerated() {
      // The stream as a pipe brings it: in pieces that cut lines anywhere.
      var at = 0
      let partial = try ReconciliationRun.work(
        chunks: {
          guard at < stdin.count else { return nil }
          defer { at = min(stdin.count, at + chunk) }
          return Array(stdin[at..<min(stdin.count, at + chunk)])
        }, request: ReconciliationRun.Request(configPath: config, date: date, history: false),
        keymapPath: keymap, progress: MemoryProgress())
      let folder = dir.path("\(label)/p\(p)")
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try Data(partial).write(to: URL(fileURLWithPath: folder + "/partial.tsv"))
      folders.append(folder)
    }
    let merged = try ReconciliationRun.readPartials(folders.reversed())
    #expect(merged.engineInputs.count >= minimumKeyed)
    _ = try ReconciliationRun.execute(
      PartitionedRunTests.request(config, date, dir.path("\(label)/merged"), .merge(merged)),
      progress: MemoryProgress())
  }

  static func keymap(_ config: String, _ date: CivilDate, in dir: TempDir) throws -> String {
    _ = try ReconciliationRun.writeKeymap(
      ReconciliationRun.Request(configPath: config, date: date), to: dir.path("keymap.tsv"),
      progress: MemoryProgress())
    return dir.path("keymap.tsv")
  }

  @Test func workersFedByAnEngineMergeIntoTheSameReports() throws {
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir)
    _ = try ReconciliationRun.execute(
      PartitionedRunTests.request(config, date, dir.path("whole")), progress: MemoryProgress())
    let keymap = try WorkerProtocolTests.keymap(config, date, in: dir)
    for n in [1, 3, 7] {
      let stdins = try WorkerProtocolTests.routed(config, date, keymap: keymap, count: n)
      try WorkerProtocolTests.workAndMerge(
        config, date, keymap: keymap, stdins: stdins, in: dir, label: "n\(n)")
      try PartitionedRunTests.expectSameReports(dir.path("whole"), dir.path("n\(n)/merged"), "worker N=\(n)")
    }
  }

  @Test func theRealisticWorldThroughWorkersGivesTheSameReports() throws {
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir, users: 1200, realistic: true)
    _ = try ReconciliationRun.execute(
      PartitionedRunTests.request(config, date, dir.path("whole")), progress: MemoryProgress())
    let keymap = try WorkerProtocolTests.keymap(config, date, in: dir)
    let stdins = try WorkerProtocolTests.routed(config, date, keymap: keymap, count: 4)
    try WorkerProtocolTests.workAndMerge(config, date, keymap: keymap, stdins: stdins, in: dir, label: "n4")
    try PartitionedRunTests.expectSameReports(
      dir.path("whole"), dir.path("n4/merged"), "realistic worker N=4")
  }

  @Test func aQuotedLineBreakAndInvalidUTF8TravelWhole() throws {
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir, users: 300)
    // An entitlement whose note spans two lines, and a transactions line with a byte outside UTF-8
    // (rejected, with its line number, by the one partition that reads it).
    let entitlements = dir.path("world/app/entitlements.csv")
    var text = try String(contentsOfFile: entitlements, encoding: .utf8)
    var rows = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let fields = rows[3].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    rows[3] =
      fields.prefix(4).joined(separator: ",") + ",\"\(fields[4])\n\"" + ","
      + fields.dropFirst(5).joined(separator: ",")
    text = rows.joined(separator: "\n")
    try text.write(toFile: entitlements, atomically: true, encoding: .utf8)
    let transactions = dir.path("world/exports/apple/transactions.jsonl")
    var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: transactions)))
    bytes += [0x7B, 0x22, 0xFF, 0x22, 0x7D, 0x0A]
    try Data(bytes).write(to: URL(fileURLWithPath: transactions))
    let whole = try ReconciliationRun.execute(
      PartitionedRunTests.request(config, date, dir.path("whole")), progress: MemoryProgress())
    #expect(whole.inputs[0].counts.rejected >= 2)
    let keymap = try WorkerProtocolTests.keymap(config, date, in: dir)
    let stdins = try WorkerProtocolTests.routed(config, date, keymap: keymap, count: 3)
    #expect(stdins.allSatisfy { String(validating: $0, as: UTF8.self) != nil }, "the protocol is UTF-8 text")
    try WorkerProtocolTests.workAndMerge(config, date, keymap: keymap, stdins: stdins, in: dir, label: "n3")
    try PartitionedRunTests.expectSameReports(dir.path("whole"), dir.path("n3/merged"), "odd lines, N=3")
  }

  @Test func aBrokenStreamIsRefusedWithItsLine() throws {
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir, users: 300)
    let keymap = try WorkerProtocolTests.keymap(config, date, in: dir)
    let good = try WorkerProtocolTests.routed(config, date, keymap: keymap, count: 2)[0]
    let request = ReconciliationRun.Request(configPath: config, date: date, history: false)
    func refusal(_ stdin: [UInt8]) -> String? {
      do {
        _ = try ReconciliationRun.work(
          stdin, request: request, keymapPath: keymap, progress: MemoryProgress())
        return nil
      } catch {
        #expect(error.code == .dataError)
        return error.message
      }
    }
    // Cut short: no `end` line.
    #expect(refusal(Array(good.dropLast(4)))?.contains("before the 'end' line") == true)
    // Not the protocol at all.
    #expect(refusal(Array("hello\n".utf8))?.contains("storerecon-worker 1") == true)
    // A line twice (an engine that sent one partition's lines twice).
    let lines = good.split(separator: 0x0A, omittingEmptySubsequences: false)
    let doubled =
      Array(lines[0..<4].joined(separator: [0x0A])) + [0x0A] + lines[3] + [0x0A]
      + Array(lines[4...].joined(separator: [0x0A]))
    #expect(refusal(doubled)?.contains("is given twice") == true)
    // Lines of the other partition: the keymap puts them elsewhere, and nothing is dropped silently.
    let other = try WorkerProtocolTests.routed(config, date, keymap: keymap, count: 2)[1]
    let swapped =
      Array(good.prefix { $0 != 0x0A }) + [0x0A] + Array("partition\t0\t2\n".utf8)
      + Array(
        other.split(separator: 0x0A, omittingEmptySubsequences: false).dropFirst(2).joined(separator: [0x0A]))
    #expect(refusal(swapped)?.contains("belong to other partitions") == true)
  }

  @Test func theEscapesRoundTripEveryByte() throws {
    var line: [UInt8] = Array(0...255)
    line += [0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, 0xED, 0xA0, 0x80, 0xC0, 0xAF]
    var out: [UInt8] = []
    WorkerLines.appendLine(input: 7, number: 42, bytes: line, to: &out)
    #expect(out.last == 0x0A)
    #expect(String(validating: out, as: UTF8.self) != nil)
    #expect(!out.dropLast().contains(0x0A) && out.filter { $0 == 0x09 }.count == 3)
    let parsed = try WorkerLines.parseLine(out.dropLast(), line: 1)
    #expect(parsed == WorkerLines.Line(input: 7, number: 42, bytes: line))
    // Valid sequences stay as they are; a surrogate and an overlong form are escaped byte by byte.
    let text = String(decoding: out, as: UTF8.self)
    #expect(text.contains("€😀") && text.contains("\\xed\\xa0\\x80\\xc0\\xaf"))
  }

  @Test func storereconWorkerLinksNoAdapterAndWritesTheSamePartial() throws {
    let worker = try #require(Binary.workerPath, "storerecon-worker is built beside storerecon")
    // No PostgreSQL, workbook, mail or picture library in the executable.
    let ldd = Process()
    ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
    ldd.arguments = [worker]
    let pipe = Pipe()
    ldd.standardOutput = pipe
    try ldd.run()
    let libraries = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    ldd.waitUntilExit()
    for library in ["libpq", "libxlsxwriter", "libcurl", "librsvg", "libcairo"] {
      #expect(!libraries.contains(library), "\(library) in \(libraries)")
    }
    // The same partial as the worker inside storerecon.
    let dir = try TempDir()
    let (config, date) = try PartitionedRunTests.world(dir, users: 300)
    let keymap = try WorkerProtocolTests.keymap(config, date, in: dir)
    let stdin = try WorkerProtocolTests.routed(config, date, keymap: keymap, count: 2)[1]
    let expected = try ReconciliationRun.work(
      stdin, request: ReconciliationRun.Request(configPath: config, date: date, history: false),
      keymapPath: keymap, progress: MemoryProgress())
    let run = Process()
    run.executableURL = URL(fileURLWithPath: worker)
    run.arguments = ["run", "--config", config, "--date", date.description, "--keymap", keymap, "--quiet"]
    let input = Pipe()
    let output = Pipe()
    run.standardInput = input
    run.standardOutput = output
    try run.run()
    let writer = Thread {
      input.fileHandleForWriting.write(Data(stdin))
      try? input.fileHandleForWriting.close()
    }
    writer.start()
    let partial = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
    run.waitUntilExit()
    #expect(run.terminationStatus == 0)
    #expect(partial == expected)
    #expect(partial.count > 1000)
  }
}
