/// The Stripe source's section of `state.json`: how far the event list was read (the events of the last
/// few minutes by id, since Stripe may list an event a moment after a later one), and which months of
/// the balance report were fetched over which interval. The journal `stripe/objects/` itself says which objects
/// are known.
struct StripeFetchState: Codable, Equatable {
  /// The `created` (seconds since 1970) of the newest event read; the next fetch lists events from a few
  /// minutes before it. `nil` before the first fetch.
  var eventsThrough: Int64?
  /// The ids of the events read that were created in the few minutes up to ``eventsThrough`` (read again
  /// by the next fetch's overlap, and skipped), sorted.
  var recentEvents: [String] = []
  /// The first month (`YYYY-MM`, UTC) of the balance report fetched; `nil` before the first report.
  var reportsFrom: String?
  /// Balance report months fetched: `YYYY-MM` → the interval its file covers.
  var reportMonths: [String: ReportMonth] = [:]
  /// A report run created and not yet finished (a fetch that stopped while Stripe was still running it):
  /// the next fetch waits for it instead of starting another.
  var pendingRun: PendingRun?

  /// An empty state.
  init() {}

  /// Reads a saved state; a member an older version did not write is empty.
  init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    eventsThrough = try values.decodeIfPresent(Int64.self, forKey: .eventsThrough)
    recentEvents = try values.decodeIfPresent([String].self, forKey: .recentEvents) ?? []
    reportsFrom = try values.decodeIfPresent(String.self, forKey: .reportsFrom)
    reportMonths = try values.decodeIfPresent([String: ReportMonth].self, forKey: .reportMonths) ?? [:]
    pendingRun = try values.decodeIfPresent(PendingRun.self, forKey: .pendingRun)
  }

  /// One month of the balance report as fetched.
  struct ReportMonth: Codable, Equatable {
    /// The run's `interval_start` and `interval_end` (seconds since 1970, the end exclusive).
    var intervalStart: Int64
    var intervalEnd: Int64
    /// Whether the interval reaches the month's end (the month is not asked for again).
    var complete: Bool
    /// Where the file was written, relative to `fetch.into`.
    var path: String
  }

  /// A report run Stripe was still running.
  struct PendingRun: Codable, Equatable {
    var id: String
    var month: String
    var intervalStart: Int64
    var intervalEnd: Int64
  }
}
