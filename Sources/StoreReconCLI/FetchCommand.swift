import Foundation
import StoreReconPlatform
import StoreReconCore
import StoreReconReports
import StoreReconFetch
package import StoreReconRun

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
    let configPath: String
    let date: CivilDate?
    switch fetchOptions(parsed) {
    case .failure(let problem): return usageError(problem.message, usage: usage)
    case .success(let options): (configPath, date) = options
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

  /// The config path and the date of `storerecon fetch`, or the usage problem (an unknown source, no
  /// `--config`, a `--date` that is not a date).
  static func fetchOptions(_ parsed: ParsedOptions) -> Result<(String, CivilDate?), ParsedOptions.Failure> {
    if let name = parsed.positional.first(where: { FetchRegistry.source(named: $0) == nil }) {
      let known = FetchRegistry.names.joined(separator: ", ")
      return .failure(.init(message: "unknown source '\(name)' (known: \(known))"))
    }
    guard let path = parsed.values["--config"] else {
      return .failure(.init(message: "missing --config FILE"))
    }
    guard let text = parsed.values["--date"] else { return .success((path, nil)) }
    guard let date = CivilDate.parse(text) else {
      return .failure(.init(message: "--date must be a calendar date YYYY-MM-DD, got '\(text)'"))
    }
    return .success((path, date))
  }
}
