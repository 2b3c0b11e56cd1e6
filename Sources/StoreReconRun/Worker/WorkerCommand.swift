import Foundation
import StoreReconCore
import StoreReconPlatform

/// `storerecon worker plan | tag | run` (docs/partitions.md#the-worker-protocol), and the whole of
/// `storerecon-worker`, the executable that links no libpq, libxlsxwriter or libcurl.
package enum WorkerCommand {
  package static let usage =
    "storerecon worker plan --config FILE [--date D] | tag --config FILE [--date D] --keymap FILE --partitions N [INDEX…] | run --config FILE [--date D] --keymap FILE [--quiet]"

  package static let help = """
    OVERVIEW: Let an engine (Spark) own the shuffle of a partitioned run.

    USAGE: \(usage)

    SUBCOMMANDS:
      plan   Print the plan (storerecon-plan 1): the inputs digest a merge checks, then one line per
             input — I, index, role, keyed or shared, path, name. Keyed inputs (App Store
             transactions, Play subscriptions and voided purchases, entitlements, credentials, the
             notification log and history) are split line by line by the engine; every worker
             reads the shared ones whole.
      tag    Read the keyed inputs INDEX… (or the indexes on stdin) and print each line as
             P<TAB>partition<TAB>L<TAB>input<TAB>line<TAB>bytes (partition * for a CSV header: every
             partition gets it). Bytes are escaped: \\\\ \\t \\n \\r, and \\xHH outside UTF-8.
      run    Read one partition's lines on stdin — storerecon-worker 1, partition I N, inputs DIGEST,
             the L lines in any order, end — run the partition and print its partial to stdout,
             with each keyed input's counts and rejects in it. The merge (storerecon merge) then reads
             only the shared inputs again. Exit 0 once the partial is printed (malformed rows are in
             it), 65 for a malformed stream or lines the keymap puts in another partition.

    Short flags: -c --config, -d --date, -q --quiet.
    Exit codes as for run; nothing is written but stdout. docs/partitions.md describes the protocol.

    """

  static func usageError(_ message: String, usage: String) -> Int32 {
    StandardError.write("Error: \(message)\nUsage: \(usage)\n  See 'storerecon worker --help'.\n")
    return RunError.Code.usage.rawValue
  }

  static func fail(_ error: RunError) -> Int32 {
    StandardError.write("storerecon: error: \(error.message)\n")
    return error.code.rawValue
  }

  static func didYouMean(_ word: String, among known: [String]) -> String {
    ParsedOptions.didYouMean(word, among: known)
  }

  /// Runs `plan`, `tag` or `run` with their options (`args` after `worker`); returns the exit code.
  package static func main(_ args: [String]) -> Int32 {
    guard let sub = args.first, !sub.hasPrefix("-") else {
      if args.contains("--help") || args.contains("-h") {
        StandardOutput.write(help)
        return 0
      }
      return usageError("worker needs a subcommand: plan, tag or run", usage: usage)
    }
    let parsed: ParsedOptions
    do {
      parsed = try ParsedOptions.parse(
        Array(args.dropFirst()), valued: ["--config", "--date", "--keymap", "--partitions"],
        flags: ["--quiet"])
    } catch {
      return usageError(error.message, usage: usage)
    }
    if parsed.help {
      StandardOutput.write(help)
      return 0
    }
    guard ["plan", "tag", "run"].contains(sub) else {
      return usageError(
        "unknown worker subcommand '\(sub)'\(didYouMean(sub, among: ["plan", "tag", "run"]))", usage: usage)
    }
    guard let config = parsed.values["--config"] else {
      return usageError("missing --config FILE", usage: usage)
    }
    let date: CivilDate?
    do {
      date = try parsed.date()
    } catch {
      return usageError(error.message, usage: usage)
    }
    if sub != "tag" && parsed.values["--partitions"] != nil {
      return usageError("--partitions belongs to worker tag", usage: usage)
    }
    if sub != "plan" && parsed.values["--keymap"] == nil {
      return usageError("worker \(sub) needs --keymap FILE (storerecon keymap writes it)", usage: usage)
    }
    let progress: any ProgressSink = parsed.flags.contains("--quiet") ? MemoryProgress() : StderrProgress()
    let request = ReconciliationRun.Request(configPath: config, date: date, history: false)
    do throws(RunError) {
      switch sub {
      case "plan":
        if let first = parsed.positional.first {
          return usageError("unexpected argument '\(first)'", usage: usage)
        }
        writeOut(try ReconciliationRun.plan(request, progress: MemoryProgress()))
      case "tag": try workerTag(parsed, request: request, usage: usage)
      default:
        if let first = parsed.positional.first {
          return usageError("unexpected argument '\(first)'", usage: usage)
        }
        let stdin = FileHandle.standardInput
        writeOut(
          try ReconciliationRun.work(
            chunks: {
              let data = stdin.readData(ofLength: 1 << 20)
              return data.isEmpty ? nil : [UInt8](data)
            }, request: request, keymapPath: parsed.values["--keymap"] ?? "", progress: progress))
      }
      return 0
    } catch {
      return fail(error)
    }
  }

  /// `worker tag --partitions N [INDEX…]`: the inputs named, or (none named) the indexes on stdin.
  static func workerTag(_ parsed: ParsedOptions, request: ReconciliationRun.Request, usage: String)
    throws(RunError)
  {
    guard let text = parsed.values["--partitions"], let n = Int(text), n >= 1, n <= PartitionSpec.maxCount
    else {
      throw RunError(.usage, "worker tag needs --partitions N (1 … \(PartitionSpec.maxCount))")
    }
    var indexes: [Int] = []
    var words = parsed.positional
    if words.isEmpty {
      words = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        .split(whereSeparator: { $0 == "\n" || $0 == " " || $0 == "\t" }).map(String.init)
    }
    for word in words {
      guard let i = Int(word), i >= 0 else {
        throw RunError(.usage, "worker tag: '\(word)' is not an input index")
      }
      indexes.append(i)
    }
    let (keymap, _) = try ReconciliationRun.readKeymap(parsed.values["--keymap"] ?? "")
    let setup = try ReconciliationRun.setUp(request, progress: MemoryProgress())
    for index in indexes {
      try ReconciliationRun.tag(index, setup: setup, keymap: keymap, count: n) { writeOut($0) }
    }
  }

  /// Writes bytes to stdout whole.
  static func writeOut(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    FileHandle.standardOutput.write(Data(bytes))
  }
}
