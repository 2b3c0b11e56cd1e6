import Foundation
package import StoreReconCore
package import StoreReconPlatform
package import StoreReconSettings

/// One `storerecon fetch`: builds the client and the context, runs the named source (or every configured
/// one) and returns their reports.
package enum FetchRun {
  /// Runs `names` (every configured source when empty) with `config`. `transport` replaces libcurl
  /// (tests); `clock` the system clock.
  package static func execute(
    _ names: [String], config: FetchConfig, known: KnownKeys, asOf: CivilDate, progress: any ProgressSink,
    environment: [String: String], transport: (any HTTPTransport)? = nil,
    clock: any FetchClock = SystemClock()
  ) throws(FetchError) -> [FetchReport] {
    var chosen: [any FetchSource] = []
    if names.isEmpty {
      chosen = FetchRegistry.sources().filter { $0.isConfigured(config) }
      guard !chosen.isEmpty else {
        throw FetchError(
          .config,
          "fetch: the config's fetch object configures no source (fetch.apple, fetch.google, fetch.stripe)")
      }
    } else {
      for name in names {
        guard let source = FetchRegistry.source(named: name) else {
          throw FetchError(
            .config, "fetch: unknown source '\(name)' (known: \(FetchRegistry.names.joined(separator: ", ")))"
          )
        }
        guard source.isConfigured(config) else {
          throw FetchError(
            .config, "fetch: the config's fetch object does not configure \(name) (fetch.\(name))")
        }
        chosen.append(source)
      }
    }
    var policy = HTTPClient.Policy()
    policy.retries = config.retries
    policy.concurrency = config.concurrency
    let http = HTTPClient(
      transport: transport
        ?? CurlTransport(
          caFile: config.caFile, connectTimeoutSeconds: min(30, config.timeoutSeconds),
          totalTimeoutSeconds: config.timeoutSeconds, maxBodyBytes: config.maxBodyBytes),
      policy: policy, clock: clock)
    let lock = try lockFolder(config.into)
    defer { lock.release() }
    let state = try FetchState(path: config.into + "/state.json")
    var reports: [FetchReport] = []
    for source in chosen {
      let context = FetchContext(
        config: config, http: http, state: state, output: FetchOutput(root: config.into), progress: progress,
        asOf: asOf, known: known, environment: environment)
      http.requestsPerSecond = config.requestsPerSecond ?? source.defaultRequestsPerSecond
      let before = http.requestsSent
      var report = try source.run(context)
      report.requests = http.requestsSent - before
      report.filesWritten = context.output.written
      progress.note("fetch \(report.line)")
      reports.append(report)
    }
    return reports
  }

  /// Creates `folder` and takes its `.lock` (a `flock`, dropped when the process ends): two fetches into
  /// one folder would overwrite each other's state. Another fetch holding it is unavailable (75).
  static func lockFolder(_ folder: String) throws(FetchError) -> FileLock {
    let path = folder + "/.lock"
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw FetchError(.ioError, "cannot create the fetch folder \(folder): \(error.localizedDescription)")
    }
    let lock: FileLock?
    do {
      lock = try FileLock.acquire(path: path, timeoutSeconds: 0) { _ in }
    } catch {
      throw FetchError(.ioError, "cannot lock \(path): \(error)")
    }
    guard let lock else {
      throw FetchError(.unavailable, "another fetch into \(folder) is running (it holds \(path))")
    }
    return lock
  }
}
