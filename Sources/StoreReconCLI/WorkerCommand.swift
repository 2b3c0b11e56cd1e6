import Foundation
import StoreReconCore
import StoreReconPlatform

extension StoreReconCLI {
  /// `storerecon worker plan | tag | run` (docs/partitions.md#the-worker-protocol).
  static func workerCommand(_ args: [String]) -> Int32 {
    let usage = Help.workerUsage
    guard let sub = args.first, !sub.hasPrefix("-") else {
      if args.contains("--help") || args.contains("-h") {
        StandardOutput.write(Help.worker)
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
      StandardOutput.write(Help.worker)
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
