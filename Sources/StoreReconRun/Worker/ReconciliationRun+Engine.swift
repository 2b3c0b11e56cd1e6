import Foundation
package import StoreReconCore
package import StoreReconIO
package import StoreReconImporters
package import StoreReconAppRows
package import StoreReconPlatform
package import StoreReconReports

/// The engine's side of a partitioned run (docs/partitions.md#the-worker-protocol): the plan, the
/// tagging of each engine-keyed input's lines with their partition, and the worker that reads one
/// partition's lines.
extension ReconciliationRun {
  /// `storerecon worker plan`: the inputs digest (the config's and every file's SHA-256, as a merge
  /// computes it) and one `I index role keyed|shared path display` line per planned input.
  package static func plan(_ request: Request, progress: any ProgressSink) throws(RunError) -> [UInt8] {
    var setup = try setUp(request, progress: progress)
    setup.configDigest = SHA256Digest.hex(of: try readBytes(request.configPath))
    var reports: [InputReport] = []
    for input in setup.plan {
      var r = InputReport(role: input.role, path: input.display, rejectsFile: "")
      if let digest = FileDigest.of(path: input.path) {
        r.bytes = digest.bytes
        r.sha256 = digest.sha256
      }
      reports.append(r)
    }
    var lines: [[String]] = [[WorkerLines.planHeader], ["inputs", inputsDigest(setup, reports)]]
    for (index, input) in setup.plan.enumerated() {
      let keyed = engineKeyedRoles.contains(input.role) && setup.databaseURI == nil
      lines.append(["I", String(index), input.role, keyed ? "keyed" : "shared", input.path, input.display])
    }
    lines.append(["end"])
    return lines.flatMap { fields in
      fields.map { PartialText.escaped($0) }.joined(separator: [0x09]) + [0x0A]
    }
  }

  /// Per line of one input: the partition its record goes to (+1; 0 for a line no record starts on).
  package final class LineOwners: @unchecked Sendable {
    private let lock = Lock()
    private var owner: [UInt16] = []
    private(set) var conflict: Int?

    package func set(_ line: Int, _ partition: Int) { lock.locked { unlockedSet(line, partition) } }

    private func unlockedSet(_ line: Int, _ partition: Int) {
      if line >= owner.count {
        owner += [UInt16](repeating: 0, count: max(line + 1 - owner.count, owner.count))
      }
      let p = UInt16(partition + 1)
      if owner[line] != 0 && owner[line] != p { conflict = conflict ?? line }
      owner[line] = p
    }

    /// The highest partition any line goes to (0 if none).
    var highest: Int { lock.locked { Int(owner.max() ?? 1) - 1 } }

    func of(_ line: Int) -> Int? { line < owner.count && owner[line] != 0 ? Int(owner[line]) - 1 : nil }
  }

  /// `storerecon worker tag`: input `index`'s lines, each as `P <partition> L …` (a CSV header, and
  /// the lines before it, as `P * L …`: every partition reads them). A CSV line no record starts on
  /// goes with the record before it (a quoted line break); a JSON line that gives no record (a
  /// rejected one) goes to the partition of the empty lineage: each line is read exactly once.
  package static func tag(
    _ index: Int, setup: Setup, keymap: LineageKeymap, count: Int, write: ([UInt8]) -> Void
  ) throws(RunError) {
    guard setup.plan.indices.contains(index) else {
      throw RunError(.usage, "worker tag: there is no input \(index) in the plan (0 ..< \(setup.plan.count))")
    }
    var input = setup.plan[index]
    guard engineKeyedRoles.contains(input.role), setup.databaseURI == nil else {
      throw RunError(.usage, "worker tag: input \(index) (\(input.role)) is shared, not keyed by the engine")
    }
    // Keys only: every line whose payload decodes is keyed; its signature is checked by the worker.
    input.verifier = JWSVerifier(mode: .off)
    let owners = LineOwners()
    let partitionOf: @Sendable (String) -> Int = {
      LineageHash.partition(of: keymap.lineage(of: $0), count: count)
    }
    var headerLine = 0
    do {
      headerLine = try keyLines(input, index: index, owners: owners, partitionOf: partitionOf)
    } catch {
      throw RunError(.dataError, "worker tag: \(error.description)")
    }
    if let line = owners.conflict {
      throw RunError(
        .software,
        "worker tag: \(input.display) line \(line) holds records of two lineages the keymap keeps apart")
    }
    try emitTagged(
      index, input: input, owners: owners, headerLine: headerLine, noKey: partitionOf(""), write: write)
  }

  /// Reads `input` with the run's reader and notes each record's partition in `owners`; returns the
  /// CSV header's line (0 for JSON Lines).
  package static func keyLines(
    _ input: PlannedInput, index: Int, owners: LineOwners, partitionOf: @escaping @Sendable (String) -> Int
  ) throws(InputError) -> Int {
    @Sendable func notification(_ n: StoreNotification, _ line: Int32) {
      var node = ""
      if let key = n.chainKey, !key.isEmpty, let last = LineageNode.storeKey(n.store, key).last {
        node = last
      }
      let p = partitionOf(node)
      owners.set(Int(line), p)
    }
    switch input.role {
    case "app.notifications", "app_store.notification_history":
      // The run's own reader (payloads decoded on all cores), keeping nothing.
      var rows = AppRowSet()
      rows.keepsNotification = { decoded in
        notification(decoded.notification, decoded.origin.line)
        return false
      }
      var report = InputReport(role: input.role, path: input.display, rejectsFile: "")
      var reports = StoreReportRows()
      _ = try InputReaders.read(
        input, fileIndex: Int32(index), rejects: RejectList(), ledger: LedgerBuilder(), rows: &rows,
        storeReports: &reports, report: &report)
      return input.role == "app.notifications"
        ? try CSVReader(path: input.path, displayName: input.display).headerLine : 0
    case let role where role.hasPrefix("app."):
      let csv = try CSVReader(path: input.path, displayName: input.display)
      let column = csv.columnIndex("user_id")
      while let record = try csv.next() {
        guard let column, record.malformed == nil, column < record.count else { continue }
        let user = record.string(column).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        owners.set(record.line, partitionOf(LineageNode.user(user)))
      }
      return csv.headerLine
    default:
      let builder = LedgerBuilder()
      builder.keeps = { _, _ in false }
      builder.tap = { batch in
        batch.forEachKeyedLine { line, space, key in
          owners.set(line, partitionOf(LineageNode.chain(space, key)))
        }
      }
      var rows = AppRowSet()
      var reports = StoreReportRows()
      var report = InputReport(role: input.role, path: input.display, rejectsFile: "")
      _ = try InputReaders.read(
        input, fileIndex: Int32(index), rejects: RejectList(), ledger: builder, rows: &rows,
        storeReports: &reports, report: &report)
      return 0
    }
  }

  package static func emitTagged(
    _ index: Int, input: PlannedInput, owners: LineOwners, headerLine: Int, noKey: Int,
    write: ([UInt8]) -> Void
  ) throws(RunError) {
    var out: [UInt8] = []
    out.reserveCapacity(1 << 20)
    var current = noKey
    let everyPartition: [UInt8] = [0x50, 0x09, 0x2A, 0x09]
    let prefixes = (0...max(noKey, owners.highest)).map { Array("P\t\($0)\t".utf8) }
    do {
      let lines = try LineReader(path: input.path, displayName: input.display)
      while let line = try lines.next() {
        let number = lines.lineNumber
        // A CSV record's later lines go with its first; a JSON line is a record of its own.
        if let p = owners.of(number) { current = p } else if headerLine == 0 { current = noKey }
        guard !line.isEmpty else { continue }
        out += number <= headerLine ? everyPartition : prefixes[current]
        WorkerLines.appendLine(input: index, number: number, bytes: line, to: &out)
        if out.count >= 1 << 20 {
          write(out)
          out.removeAll(keepingCapacity: true)
        }
      }
    } catch {
      throw RunError(.dataError, "worker tag: \(error.description)")
    }
    write(out)
  }
}

extension ReconciliationRun {
  /// `storerecon worker run`: one partition's run over the lines the chunks bring (stdin, read as it
  /// comes); returns its partial.
  package static func work(
    chunks next: () -> [UInt8]?, request: Request, keymapPath: String, progress: any ProgressSink
  ) throws(RunError) -> [UInt8] {
    let (keymap, digest) = try readKeymap(keymapPath)
    let setup = try setUp(request, progress: MemoryProgress())
    let keyed = Set(setup.plan.indices.filter { engineKeyedRoles.contains(setup.plan[$0].role) })
    let scratch =
      NSTemporaryDirectory()
      + "storerecon-worker-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
    do {
      try FileManager.default.createDirectory(atPath: scratch + "/in", withIntermediateDirectories: true)
    } catch {
      throw RunError(.ioError, "cannot create \(scratch): \(error.localizedDescription)")
    }
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let spooler = try WorkerSpooler(plan: setup.plan, keyed: keyed, folder: scratch + "/in")
    while let chunk = next() { try spooler.feed(chunk) }
    let (head, paths) = try spooler.finish()
    var run = request
    run.outDirectory = scratch + "/out"
    run.history = false
    run.mode = .partition(head.spec, keymap, digest: digest)
    run.worker = WorkerSetup(paths: paths, inputsDigest: head.inputsDigest, keyed: keyed)
    _ = try executeWorker(run, progress: progress)
    return try readBytes(scratch + "/out/" + RunPartial.fileName)
  }

  /// ``work(chunks:request:keymapPath:progress:)`` over bytes held whole.
  package static func work(_ stdin: [UInt8], request: Request, keymapPath: String, progress: any ProgressSink)
    throws(RunError) -> [UInt8]
  {
    var given = false
    return try work(
      chunks: {
        defer { given = true }
        return given ? nil : stdin
      }, request: request, keymapPath: keymapPath, progress: progress)
  }
}
