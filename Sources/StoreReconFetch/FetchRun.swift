package import StoreReconCore
package import StoreReconPlatform

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
          .config, "fetch: the config's fetch object configures no source (fetch.apple, fetch.google)")
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
    policy.requestsPerSecond = config.requestsPerSecond
    let http = HTTPClient(
      transport: transport
        ?? CurlTransport(
          caFile: config.caFile, connectTimeoutSeconds: min(30, config.timeoutSeconds),
          totalTimeoutSeconds: config.timeoutSeconds, maxBodyBytes: config.maxBodyBytes),
      policy: policy, clock: clock)
    let state = try FetchState(path: config.into + "/state.json")
    var reports: [FetchReport] = []
    for source in chosen {
      let context = FetchContext(
        config: config, http: http, state: state, output: FetchOutput(root: config.into), progress: progress,
        asOf: asOf, known: known, environment: environment)
      let before = http.requestsSent
      var report = try source.run(context)
      report.requests = http.requestsSent - before
      report.filesWritten = context.output.written
      progress.note("fetch \(report.line)")
      reports.append(report)
    }
    return reports
  }
}
