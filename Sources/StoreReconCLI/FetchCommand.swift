import Foundation
import StoreReconPlatform
import StoreReconCore
import StoreReconReports
import StoreReconFetch

extension StoreReconCLI {
  /// `storerecon fetch [SOURCE…] --config FILE [--date D] [--quiet]`: downloads what is new from the
  /// stores' APIs into the config's `fetch.into` folder (docs/fetch.md).
  static func fetchCommand(_ args: [String]) -> Int32 {
    let usage = Help.fetchUsage
    let parsed: ParsedOptions
    do {
      parsed = try ParsedOptions.parse(args, valued: ["--config", "--date"], flags: ["--quiet"])
    } catch {
      return usageError(error.message, usage: usage)
    }
    if parsed.help {
      StandardOutput.write(Help.fetch)
      return 0
    }
    for name in parsed.positional where FetchRegistry.source(named: name) == nil {
      return usageError(
        "unknown source '\(name)' (known: \(FetchRegistry.names.joined(separator: ", ")))", usage: usage)
    }
    guard let configPath = parsed.values["--config"] else {
      return usageError("missing --config FILE", usage: usage)
    }
    var date: CivilDate?
    if let text = parsed.values["--date"] {
      guard let d = CivilDate.parse(text) else {
        return usageError("--date must be a calendar date YYYY-MM-DD, got '\(text)'", usage: usage)
      }
      date = d
    }
    let progress: any ProgressSink = parsed.flags.contains("--quiet") ? MemoryProgress() : StderrProgress()
    do throws(RunError) {
      let config = try RunConfig.load(path: configPath)
      guard let fetch = config.fetch else {
        throw RunError(.config, "config \(configPath) has no \"fetch\" object (docs/fetch.md)")
      }
      guard let calendar = ReportCalendar(identifier: config.timeZone) else {
        throw RunError(.config, "config \(configPath): unknown timeZone \(config.timeZone)")
      }
      let known = try FetchKnownKeys.read(config)
      let reports: [FetchReport]
      do {
        reports = try FetchRun.execute(
          parsed.positional, config: fetch, known: known, asOf: date ?? calendar.yesterday(),
          progress: progress,
          environment: ProcessInfo.processInfo.environment)
      } catch {
        throw RunError(kind: error.kind, error.message)
      }
      for report in reports { StandardOutput.write(report.line + "\n") }
      return 0
    } catch {
      return fail(error)
    }
  }
}
