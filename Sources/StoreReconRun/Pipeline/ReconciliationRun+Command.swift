package import StoreReconPlatform
package import StoreReconCore
import StoreReconSettings

/// `storerecon run` and `storerecon merge` as a whole: the shell hands in the parsed arguments and the
/// adapters, and gets back how the run ended (``RunOutcome``), which it maps to an exit code.
extension ReconciliationRun {
  /// What a run's mode names on the command line, before it is read: the keymap of a partition, the
  /// partials of a merge.
  package enum PlannedMode: Sendable {
    case whole
    case partition(PartitionSpec, keymap: String)
    case merge([String])
  }

  /// A run as the command line asks for it.
  package struct Command {
    /// The run itself; its mode is set from ``planned``.
    package var request: Request
    /// The keymap or partials to read before the run.
    package var planned: PlannedMode = .whole
    /// `--mail` (with `--dry-run` and `--mail-incomplete`): the mail phase after the run.
    package var mail: MailOptions?
    /// `--require-complete`: an incomplete run ends with exit 4 and is not mailed.
    package var requireComplete = false

    /// A run of `request` in `planned` mode.
    package init(request: Request, planned: PlannedMode = .whole) {
      self.request = request
      self.planned = planned
    }
  }

  /// Runs the command: checks the mail settings before anything is read, reads the keymap or the
  /// partials, runs within `--memory`, prints the stdout summary, then the mail phase
  /// (``finish(_:command:mail:transport:progress:)``). Throws what stops the run, or a failed e-mail.
  package static func command(_ command: Command, adapters: RunAdapters, progress: any ProgressSink)
    throws(RunError) -> RunOutcome
  {
    var settings: MailSettings?
    if command.mail != nil {
      // Checked before the run: a run that cannot mail should say so before it reads anything.
      settings = try RunConfig.load(path: command.request.configPath).mail
      guard settings != nil else {
        throw RunError(
          .config, "config \(command.request.configPath): --mail needs a \"mail\" section (from, to, smtp)")
      }
    }
    var request = command.request
    request.mode = try resolved(command.planned)
    let result = try executeWithinMemory(request, adapters: adapters, progress: progress)
    if case .partition = request.mode { return partitionWritten(result) }
    if let headline = result.summary?.headline { StandardOutput.write(headline + "\n") }
    StandardOutput.write(Summary.text(result))
    sayFailedInputs(result)
    return try finish(
      result, command: command, mail: settings, transport: adapters.mail, progress: progress)
  }

  /// Reads the keymap or the partials `planned` names.
  static func resolved(_ planned: PlannedMode) throws(RunError) -> RunMode {
    switch planned {
    case .whole: return .whole
    case .partition(let spec, let path):
      let (keymap, digest) = try readKeymap(path)
      return .partition(spec, keymap, digest: digest)
    case .merge(let paths): return .merge(try readPartials(paths))
    }
  }

  /// After a partition's run: where its partial is and the partition's peak RSS; clean, or a malformed
  /// input (the partial is written either way).
  static func partitionWritten(_ result: RunResult) -> RunOutcome {
    let megabytes = PeakMemory.residentBytes() / 1_048_576
    StandardOutput.write("partial written to \(result.outDirectory) (peak RSS \(megabytes) MB)\n")
    return result.failedInputs.isEmpty ? .clean : .malformedInput
  }

  /// A malformed input file is said loudly on stderr, even with `--quiet`.
  package static func sayFailedInputs(_ result: RunResult) {
    for input in result.failedInputs {
      StandardError.write(
        "storerecon: error: \(input.error ?? input.path) — reconciled without this file; reports written to \(result.outDirectory)\n"
      )
    }
  }
}

/// How a run that completed ends, most urgent first; the shell maps it to the exit code
/// (docs/config.md#exit-codes). What stops a run is a ``RunError`` instead.
package enum RunOutcome: Sendable, Equatable {
  /// Incomplete with `--require-complete`, or with `--mail` and without `--mail-incomplete` (not
  /// mailed): exit 4.
  case incomplete
  /// An input file was malformed (the reports were still written): exit 65.
  case malformedInput
  /// Findings exceed a configured threshold: exit 3.
  case thresholdExceeded
  /// Nothing to tell: exit 0.
  case clean
}
