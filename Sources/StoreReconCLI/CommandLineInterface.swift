import Foundation
import StoreReconPlatform
import StoreReconCore
import StoreReconPostgres
import StoreReconReports
import StoreReconMail
import StoreReconDemo
package import StoreReconSettings
package import StoreReconRun

/// The `storerecon` command line: parses arguments, runs a command, maps every error to an exit code.
///
/// Behaves like swift-argument-parser tools: `--help`/`--version` on stdout with exit 0; a usage error
/// on stderr as `Error: …`, the usage line and a pointer to `--help`, exit 64.
package enum StoreReconCLI {
  /// Runs the command line `arguments` (without the program name) and returns the exit code.
  package static func main(_ arguments: [String]) -> Int32 {
    // An input that shrinks under its mapping is one line and exit 74, not a crash (FaultExit).
    FaultExit.installBusHandler()
    var args = arguments
    guard let command = args.first else {
      StandardOutput.write(Help.overview)
      return 0
    }
    args.removeFirst()
    switch command {
    case "--help", "-h", "help":
      guard let topic = args.first else {
        StandardOutput.write(Help.overview)
        return 0
      }
      guard let text = Help.command(topic) else {
        return usageError("no help for '\(topic)'\(didYouMean(topic, among: commands))", usage: Help.usage)
      }
      StandardOutput.write(text)
      return 0
    case "--version", "-V", "version":
      StandardOutput.write("storerecon \(StoreReconVersion.version)\n")
      return 0
    case "run":
      return runCommand(args)
    case "merge":
      return runCommand(args, merge: true)
    case "keymap":
      return keymapCommand(args)
    case "worker":
      return WorkerCommand.main(args)
    case "demo":
      return demoCommand(args)
    case "db":
      return databaseCommand(args)
    case "mail":
      return mailCommand(args)
    case "settle":
      return settleCommand(args)
    case "fetch":
      return fetchCommand(args)
    default:
      return usageError(
        "unknown command '\(command)'\(didYouMean(command, among: commands))", usage: Help.usage)
    }
  }

  /// The commands, for "did you mean" (a new command adds its name here too).
  static let commands = [
    "run", "merge", "keymap", "worker", "fetch", "demo", "db", "mail", "settle", "help", "version",
  ]

  /// ` — did you mean 'run'?` when `word` is a near miss of one of `known` (``ConfigSchema/closest(to:among:)``),
  /// else nothing.
  static func didYouMean(_ word: String, among known: [String]) -> String {
    ParsedOptions.didYouMean(word, among: known)
  }

  static func usageError(_ message: String, usage: String) -> Int32 {
    StandardError.write(
      "Error: \(message)\nUsage: \(usage)\n  See 'storerecon --help' for more information.\n")
    return RunError.Code.usage.rawValue
  }

  static func fail(_ error: RunError) -> Int32 {
    StandardError.write("storerecon: error: \(error.message)\n")
    return error.code.rawValue
  }

  // MARK: run

  /// The options of run and merge that take a value.
  static let runValued: Set<String> = [
    "--config", "--date", "--out", "--database", "--queries", "--lock-timeout", "--partition", "--keymap",
    "--memory",
  ]
  /// The flags of run and merge.
  static let runFlags: Set<String> = [
    "--quiet", "--no-history", "--mail", "--dry-run", "--require-complete", "--allow-missing",
    "--allow-damaged",
    "--mail-incomplete", "--from-scratch",
  ]

  static func runCommand(_ args: [String], merge: Bool = false) -> Int32 {
    let usage = merge ? Help.mergeUsage : Help.runUsage
    let parsed: ParsedOptions
    do {
      parsed = try ParsedOptions.parse(args, valued: runValued, flags: runFlags)
    } catch {
      return usageError(error.message, usage: usage)
    }
    if parsed.help {
      StandardOutput.write(merge ? Help.merge : Help.run)
      return 0
    }
    let mail = parsed.flags.contains("--mail")
    let dryRun = parsed.flags.contains("--dry-run")
    if dryRun && !mail { return usageError("--dry-run needs --mail", usage: usage) }
    let mailIncomplete = parsed.flags.contains("--mail-incomplete")
    if mailIncomplete && !mail { return usageError("--mail-incomplete needs --mail", usage: usage) }
    let mode: ReconciliationRun.PlannedMode
    switch partitionMode(parsed, merge: merge) {
    case .success(let m): mode = m
    case .failure(let failure): return usageError(failure.message, usage: usage)
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
    var lockTimeout = 600
    if let text = parsed.values["--lock-timeout"] {
      guard let n = Int(text), n >= 0, n <= 86_400 else {
        return usageError(
          "--lock-timeout must be a whole number of seconds from 0 to 86400, got '\(text)'", usage: usage)
      }
      lockTimeout = n
    }
    let memory: Int64
    switch memoryOption(parsed, mode: mode) {
    case .success(let bytes): memory = bytes
    case .failure(let failure): return usageError(failure.message, usage: usage)
    }
    let progress: any ProgressSink = parsed.flags.contains("--quiet") ? MemoryProgress() : StderrProgress()
    var request = ReconciliationRun.Request(
      configPath: config, date: date, outDirectory: parsed.values["--out"],
      database: parsed.values["--database"], queriesDirectory: parsed.values["--queries"],
      history: !parsed.flags.contains("--no-history"),
      lockTimeoutSeconds: lockTimeout, allowMissing: parsed.flags.contains("--allow-missing"),
      allowDamaged: parsed.flags.contains("--allow-damaged"))
    request.memoryBytes = memory
    request.fromScratch = parsed.flags.contains("--from-scratch")
    var command = ReconciliationRun.Command(request: request, planned: mode)
    if mail { command.mail = .init(dryRun: dryRun, mailIncomplete: mailIncomplete) }
    command.requireComplete = parsed.flags.contains("--require-complete")
    do throws(RunError) {
      return exitCode(try ReconciliationRun.command(command, adapters: .shell(), progress: progress))
    } catch {
      return fail(error)
    }
  }

  /// The exit code of how a run ended (docs/config.md#exit-codes).
  static func exitCode(_ outcome: RunOutcome) -> Int32 {
    switch outcome {
    case .incomplete: return RunError.Code.incomplete.rawValue
    case .malformedInput: return RunError.Code.dataError.rawValue
    case .thresholdExceeded: return RunError.Code.thresholdExceeded.rawValue
    case .clean: return 0
    }
  }

  /// `--memory`'s bytes (default: no budget, one pass); a usage error for a partition's or a merge's, or a bad size.
  static func memoryOption(_ parsed: ParsedOptions, mode: ReconciliationRun.PlannedMode) -> Result<
    Int64, ParsedOptions.Failure
  > {
    guard let text = parsed.values["--memory"] else { return .success(ReconciliationRun.defaultMemoryBytes) }
    guard case .whole = mode else {
      return .failure(.init(message: "--memory belongs to a whole run, not to a partition or a merge"))
    }
    guard let bytes = memoryBytes(text) else {
      return .failure(
        .init(
          message:
            "--memory must be a size in bytes, or with K, M or G (powers of 1024), e.g. 1G; got '\(text)'"))
    }
    return .success(bytes)
  }

  /// `--memory`'s value in bytes: a whole number, optionally followed by K, M or G (powers of 1024,
  /// `KiB`, `MiB`, `GiB` too); `nil` for anything else, zero, or more than 1 PiB.
  static func memoryBytes(_ text: String) -> Int64? {
    var digits = Substring(text)
    var unit: Int64 = 1
    for (suffixes, size) in [
      (["G", "GiB"], Int64(1) << 30), (["M", "MiB"], Int64(1) << 20), (["K", "KiB"], Int64(1) << 10),
    ] {
      if let s = suffixes.first(where: { text.hasSuffix($0) }) {
        digits = digits.dropLast(s.count)
        unit = size
        break
      }
    }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int64(digits), n > 0,
      n <= (Int64(1) << 50) / unit
    else { return nil }
    return n * unit
  }

  // MARK: mail

  static func mailCommand(_ args: [String]) -> Int32 {
    let usage = Help.mailUsage
    let parsed: ParsedOptions
    do {
      parsed = try ParsedOptions.parse(
        args, valued: ["--config", "--date", "--out"], flags: ["--quiet", "--dry-run"])
    } catch {
      return usageError(error.message, usage: usage)
    }
    if parsed.help {
      StandardOutput.write(Help.mail)
      return 0
    }
    guard parsed.positional.isEmpty else {
      return usageError("unexpected argument '\(parsed.positional[0])'", usage: usage)
    }
    guard let configPath = parsed.values["--config"] else {
      return usageError("missing --config FILE", usage: usage)
    }
    let date: CivilDate?
    do {
      date = try parsed.date()
    } catch {
      return usageError(error.message, usage: usage)
    }
    let progress: any ProgressSink = parsed.flags.contains("--quiet") ? MemoryProgress() : StderrProgress()
    do throws(RunError) {
      let line = try ReconciliationRun.mailReports(
        configPath: configPath, date: date, folder: parsed.values["--out"],
        dryRun: parsed.flags.contains("--dry-run"), transport: SMTPMail(), progress: progress)
      StandardOutput.write(line + "\n")
      return 0
    } catch {
      return fail(error)
    }
  }

  // MARK: settle

  static func settleCommand(_ args: [String]) -> Int32 {
    let usage = Help.settleUsage
    let parsed: ParsedOptions
    do {
      parsed = try ParsedOptions.parse(
        args, valued: ["--config", "--date", "--out", "--reason", "--by", "--until", "--max-amount-minor"],
        flags: ["--all"])
    } catch {
      return usageError(error.message, usage: usage)
    }
    if parsed.help {
      StandardOutput.write(Help.settle)
      return 0
    }
    guard let configPath = parsed.values["--config"] else {
      return usageError("missing --config FILE", usage: usage)
    }
    guard let reason = parsed.values["--reason"], !reason.isEmpty else {
      return usageError("missing --reason TEXT (why the case is accepted)", usage: usage)
    }
    guard let by = parsed.values["--by"], !by.isEmpty else {
      return usageError("missing --by NAME (who decided)", usage: usage)
    }
    let date: CivilDate?
    var until: CivilDate?
    var cap: Int64?
    do {
      date = try parsed.date()
    } catch {
      return usageError(error.message, usage: usage)
    }
    if let text = parsed.values["--until"] {
      guard let day = CivilDate.parse(text) else {
        return usageError("--until '\(text)' is not a date (YYYY-MM-DD)", usage: usage)
      }
      until = day
    }
    if let text = parsed.values["--max-amount-minor"] {
      guard let value = Int64(text), value >= 0 else {
        return usageError("--max-amount-minor '\(text)' is not a whole number of minor units", usage: usage)
      }
      cap = value
    }
    do throws(RunError) {
      let config = try RunConfig.load(path: configPath)
      var folder = parsed.values["--out"]
      if folder == nil {
        guard let calendar = ReportCalendar(identifier: config.timeZone) else {
          throw RunError(.config, "config \(configPath): unknown time zone '\(config.timeZone)'")
        }
        folder = "reports/\(date ?? calendar.yesterday())"
      }
      let written = try Settlement.settle(
        Settlement.Request(
          folder: folder ?? ".", keys: parsed.positional, all: parsed.flags.contains("--all"), reason: reason,
          by: by, until: until, maxAmountMinor: cap),
        config: config)
      let file = config.decisions ?? "decisions.csv"
      StandardOutput.write(
        "settled \(written.count) case\(written.count == 1 ? "" : "s") in \(file)"
          + (until.map { " until \($0)" } ?? "") + ": " + written.prefix(5).map(\.key).joined(separator: ", ")
          + (written.count > 5 ? ", …" : "") + "\n")
      return 0
    } catch {
      return fail(error)
    }
  }

  // MARK: demo

  static func demoCommand(_ args: [String]) -> Int32 {
    let usage = Help.demoUsage
    let parsed: ParsedOptions
    do {
      parsed = try ParsedOptions.parse(
        args, valued: ["--out", "--users", "--seed", "--date"],
        flags: ["--quiet", "--realistic", "--all-jws", "--no-notification-log", "--one-day"])
    } catch {
      return usageError(error.message, usage: usage)
    }
    if parsed.help {
      StandardOutput.write(Help.demo)
      return 0
    }
    guard parsed.positional.isEmpty else {
      return usageError("unexpected argument '\(parsed.positional[0])'", usage: usage)
    }
    var options = DemoOptions()
    if let text = parsed.values["--users"] {
      guard let n = Int(text), n > 0, n <= 50_000_000 else {
        return usageError("--users must be a whole number from 1 to 50000000, got '\(text)'", usage: usage)
      }
      options.users = n
    }
    if let text = parsed.values["--seed"] {
      guard let n = UInt64(text) else {
        return usageError("--seed must be a non-negative whole number, got '\(text)'", usage: usage)
      }
      options.seed = n
    }
    if let text = parsed.values["--date"] {
      guard let d = CivilDate.parse(text) else {
        return usageError("--date must be a calendar date YYYY-MM-DD, got '\(text)'", usage: usage)
      }
      options.asOf = d
    }
    options.realistic = parsed.flags.contains("--realistic")
    options.allJWS = parsed.flags.contains("--all-jws")
    if options.allJWS && !options.realistic {
      return usageError(
        "--all-jws writes the realistic world's App Store lines: give --realistic too", usage: usage)
    }
    options.notificationLog = !parsed.flags.contains("--no-notification-log")
    let directory = parsed.values["--out"] ?? "demo"
    let quiet = parsed.flags.contains("--quiet")
    let progress: any ProgressSink = quiet ? MemoryProgress() : StderrProgress()
    do {
      let outcome = try DemoRun.execute(
        options: options, directory: directory, progress: progress, showPercent: !quiet,
        dayBefore: !parsed.flags.contains("--one-day"))
      StandardOutput.write(outcome.text)
      ReconciliationRun.sayFailedInputs(outcome.result)
      return outcome.exitCode
    } catch {
      if error.code == .usage { return usageError(error.message, usage: usage) }
      return fail(error)
    }
  }
}

extension StoreReconCLI {
  // MARK: db

  static func databaseCommand(_ args: [String]) -> Int32 {
    let usage = Help.databaseUsage
    guard let sub = args.first else { return usageError("missing subcommand: init or load", usage: usage) }
    if sub == "--help" || sub == "-h" {
      StandardOutput.write(Help.database)
      return 0
    }
    let parsed: ParsedOptions
    do {
      parsed = try ParsedOptions.parse(
        Array(args.dropFirst()), valued: ["--database", "--queries"], flags: ["--quiet"])
    } catch {
      return usageError(error.message, usage: usage)
    }
    if parsed.help {
      StandardOutput.write(Help.database)
      return 0
    }
    guard sub == "init" || sub == "load" else {
      return usageError("unknown db subcommand '\(sub)'", usage: usage)
    }
    guard let uri = parsed.values["--database"] else {
      return usageError("missing --database URI", usage: usage)
    }
    do throws(RunError) {
      switch sub {
      case "init":
        guard parsed.positional.isEmpty else {
          return usageError("unexpected argument '\(parsed.positional[0])'", usage: usage)
        }
        let schema = try viaDatabase { () throws(DatabaseError) in
          try QueryFolder.schema(directory: parsed.values["--queries"])
        }
        let connection = try viaDatabase { () throws(DatabaseError) in try PostgresConnection.open(uri) }
        do {
          try connection.executeScript(schema.text)
        } catch {
          throw RunError(error.databaseError("running \(schema.displayName)"))
        }
        do {
          try connection.executeScript(RunHistoryStore.schema)
        } catch {
          throw RunError(error.databaseError("creating the run history tables"))
        }
        StandardOutput.write(
          "tables entitlements, credentials, assignments, goodwill, credits (\(schema.displayName)) and "
            + "storerecon_runs, storerecon_findings are ready in \(connection.description)\n")
        return 0
      default:
        guard parsed.positional.count == 1 else {
          return usageError(
            parsed.positional.isEmpty
              ? "missing DIR (the folder holding entitlements.csv, …)"
              : "unexpected argument '\(parsed.positional[1])'", usage: usage)
        }
        let directory = parsed.positional[0]
        var isDirectory: ObjCBool = false
        let exists = unsafe FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory)
        guard exists, isDirectory.boolValue else {
          throw RunError(.missingInput, "folder \(directory) does not exist")
        }
        let connection = try viaDatabase { () throws(DatabaseError) in try PostgresConnection.open(uri) }
        let clock = ContinuousClock()
        let started = clock.now
        let loads = try viaDatabase { () throws(DatabaseError) in
          try DatabaseLoader.load(directory: directory, connection: connection)
        }
        let ms = ReconciliationRun.milliseconds(clock.now - started)
        var text = ""
        for load in loads {
          let c = load.counts
          text += "\(load.contract.rawValue): \(load.stored) rows loaded from \(load.file)"
          text += c.rejected > 0 ? " (\(c.read) read, \(c.rejected) rejected)\n" : "\n"
          for reject in load.rejects.prefix(20) {
            StandardError.write("storerecon: rejected \(reject.file) line \(reject.line): \(reject.reason)\n")
          }
          if load.rejects.count > 20 {
            StandardError.write(
              "storerecon: … and \(load.rejects.count - 20) more rejected rows in \(load.file)\n")
          }
        }
        text += "loaded into \(connection.description) in one transaction (\(ms) ms)\n"
        StandardOutput.write(text)
        return 0
      }
    } catch {
      return fail(error)
    }
  }
}
