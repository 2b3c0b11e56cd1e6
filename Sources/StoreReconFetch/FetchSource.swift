package import StoreReconCore
package import StoreReconPlatform
package import StoreReconSettings

/// One store's fetch (`apple`, `google`): reads the context's config section, asks the store's APIs
/// through ``FetchContext/http``, writes its files through ``FetchContext/output`` and keeps its cursors
/// in ``FetchContext/state``.
///
/// How a source plugs in:
/// 1. A type in this target conforming to ``FetchSource``, with a `name` (the CLI's subcommand,
///    `storerecon fetch NAME`, and its key in `state.json`).
/// 2. `isConfigured` says whether the config has what it needs (`config.google != nil`); a fetch
///    without a source name runs every configured one.
/// 3. `run` does the work in steps. After each step it saves its cursors
///    (`context.state.save(MyState, for: name)`), so an interrupted fetch resumes; it writes each
///    output file whole (`context.output.write(bytes, to: "play/subscriptions.jsonl")`) — a file that
///    did not change is not rewritten — and only after every response for it has been checked.
/// 4. Requests go through `context.http.send(request, tokens: …)`, which retries 429/5xx with backoff,
///    paces the rate and re-makes a bearer token once on a 401; `context.http.require(…)` turns any
///    other unexpected status into the error of its kind. Errors name requests by method and path only.
/// 5. Progress: one line per step on `context.progress` (counts, no secrets).
/// 6. One line in ``FetchRegistry/sources`` registers it.
package protocol FetchSource: AnyObject {
  /// The source's name (`apple`).
  var name: String { get }
  /// Whether `config` configures this source.
  func isConfigured(_ config: FetchConfig) -> Bool
  /// The requests a second it sends when `fetch.requestsPerSecond` is not set: chosen from the limits its
  /// store documents (docs/fetch.md#retries-limits-and-failures).
  var defaultRequestsPerSecond: Double { get }
  /// Fetches what is new; returns what it did.
  func run(_ context: FetchContext) throws(FetchError) -> FetchReport
}

/// What one source's fetch did.
package struct FetchReport: Sendable, Equatable {
  /// The source's name.
  package var source: String
  /// HTTP requests sent (every try counts).
  package var requests = 0
  /// Records written (transactions, notifications, report files…).
  package var records = 0
  /// Files written or rewritten (paths relative to `fetch.into`); an unchanged file is not listed.
  package var filesWritten: [String] = []

  /// An empty report of `source`.
  package init(source: String) { self.source = source }

  /// `apple: 12 requests, 340 records, 2 files written`.
  package var line: String {
    "\(source): \(requests) requests, \(records) records, \(filesWritten.count) files written"
  }
}

/// Everything a source works with during one fetch.
package final class FetchContext {
  /// The config's `fetch` object.
  package let config: FetchConfig
  /// The HTTP client (retries, rate, tokens).
  package let http: HTTPClient
  /// `state.json`.
  package let state: FetchState
  /// The files under `fetch.into`.
  package let output: FetchOutput
  /// Progress lines (stderr, or nowhere with `--quiet`).
  package let progress: any ProgressSink
  /// The day the fetch is for (`--date`, today by default): the last report day is the one before.
  package let asOf: CivilDate
  /// The store keys the app's rows know.
  package let known: KnownKeys
  /// The process environment (key file variables).
  package let environment: [String: String]

  /// A context of these parts.
  package init(
    config: FetchConfig, http: HTTPClient, state: FetchState, output: FetchOutput, progress: any ProgressSink,
    asOf: CivilDate, known: KnownKeys, environment: [String: String]
  ) {
    self.config = config
    self.http = http
    self.state = state
    self.output = output
    self.progress = progress
    self.asOf = asOf
    self.known = known
    self.environment = environment
  }

  /// The clock the client waits on (token lifetimes read it too).
  package var clock: any FetchClock { http.clock }
}
