import StoreReconCore
import StoreReconPlatform
package import StoreReconRun

extension StoreReconCLI {
  /// `--partition I/N --keymap FILE` for run, the partials for merge; a usage error otherwise.
  static func partitionMode(_ parsed: ParsedOptions, merge: Bool) -> Result<
    ReconciliationRun.PlannedMode, ParsedOptions.Failure
  > {
    if merge {
      if parsed.values["--partition"] != nil || parsed.values["--keymap"] != nil {
        return .failure(.init(message: "merge takes no --partition or --keymap: give it the partials"))
      }
      guard !parsed.positional.isEmpty else {
        return .failure(.init(message: "missing the partials (PART_0 … PART_N-1)"))
      }
      guard parsed.values["--date"] != nil, parsed.values["--out"] != nil else {
        return .failure(.init(message: "merge needs --date and --out"))
      }
      return .success(.merge(parsed.positional))
    }
    if let first = parsed.positional.first {
      return .failure(.init(message: "unexpected argument '\(first)'"))
    }
    switch (parsed.values["--partition"], parsed.values["--keymap"]) {
    case (nil, nil): return .success(.whole)
    case (nil, _?): return .failure(.init(message: "--keymap needs --partition I/N"))
    case (_?, nil):
      return .failure(.init(message: "--partition needs --keymap FILE (storerecon keymap writes it)"))
    case (let text?, let keymap?):
      guard let spec = PartitionSpec(parsing: text) else {
        return .failure(
          .init(message: "--partition must be I/N with 0 ≤ I < N ≤ \(PartitionSpec.maxCount), got '\(text)'"))
      }
      if parsed.flags.contains("--mail") {
        return .failure(.init(message: "--mail belongs to the merge, not a partition"))
      }
      guard parsed.values["--date"] != nil, parsed.values["--out"] != nil else {
        return .failure(.init(message: "--partition needs --date and --out"))
      }
      return .success(.partition(spec, keymap: keymap))
    }
  }

  /// `storerecon keymap --config C [--date D] --out FILE`.
  static func keymapCommand(_ args: [String]) -> Int32 {
    let usage = Help.keymapUsage
    let parsed: ParsedOptions
    do {
      parsed = try ParsedOptions.parse(
        args, valued: ["--config", "--date", "--out", "--database", "--queries"], flags: ["--quiet"])
    } catch {
      return usageError(error.message, usage: usage)
    }
    if parsed.help {
      StandardOutput.write(Help.keymap)
      return 0
    }
    if let first = parsed.positional.first {
      return usageError("unexpected argument '\(first)'", usage: usage)
    }
    guard let config = parsed.values["--config"] else {
      return usageError("missing --config FILE", usage: usage)
    }
    guard let out = parsed.values["--out"] else { return usageError("missing --out FILE", usage: usage) }
    let date: CivilDate?
    do {
      date = try parsed.date()
    } catch {
      return usageError(error.message, usage: usage)
    }
    let progress: any ProgressSink = parsed.flags.contains("--quiet") ? MemoryProgress() : StderrProgress()
    do throws(RunError) {
      let line = try ReconciliationRun.writeKeymap(
        ReconciliationRun.Request(
          configPath: config, date: date, database: parsed.values["--database"],
          queriesDirectory: parsed.values["--queries"]), to: out, progress: progress)
      StandardOutput.write(line + "\n")
      return 0
    } catch {
      return fail(error)
    }
  }
}
