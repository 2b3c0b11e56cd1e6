import StoreReconCore
import StoreReconSettings

extension AppleRun {
  /// One report the App Store Connect API serves.
  struct ReportKind: Sendable {
    /// `sales`, `subscriber`, `financial` (in messages).
    var label: String
    /// `/v1/salesReports` or `/v1/financeReports`.
    var path: String
    /// The filters besides `reportDate` and `vendorNumber`.
    var filters: [(String, String)]
    /// The file name under `apple/reports/`: `<prefix><vendor><middle><period digits>.txt.gz`.
    var prefix: String
    var middle = "_"

    /// The file of `vendor`'s day (`YYYY-MM-DD`) or month (`YYYY-MM`).
    func fileName(_ vendor: String, _ period: String) -> String {
      prefix + vendor + middle + period.filter { $0 != "-" } + ".txt.gz"
    }
  }

  static let sales = ReportKind(
    label: "sales", path: "/v1/salesReports",
    filters: [
      ("reportType", "SALES"), ("reportSubType", "SUMMARY"), ("frequency", "DAILY"), ("version", "1_0"),
    ],
    prefix: "S_D_")
  static let subscriber = ReportKind(
    label: "subscriber", path: "/v1/salesReports",
    filters: [
      ("reportType", "SUBSCRIBER"), ("reportSubType", "DETAILED"), ("frequency", "DAILY"), ("version", "1_3"),
    ],
    prefix: "Subscriber_")
  static let financial = ReportKind(
    label: "financial", path: "/v1/financeReports",
    filters: [("reportType", "FINANCIAL"), ("regionCode", "ZZ")],
    prefix: "Financial_", middle: "_ZZ_")

  /// The daily Summary Sales and Subscriber reports of every day in the backfill window up to the fetch's
  /// date not fetched yet, and the Financial reports of the months before the date's month. A 404 (no
  /// report for that period, or not ready yet) is remembered as not fetched: asked again next time while
  /// the day is in the window.
  mutating func reports(vendor: String, tokens: AppleTokens, _ report: inout FetchReport) throws(FetchError) {
    let window = Int64(context.config.apple?.backfillDays ?? 30)
    let last = context.asOf
    let days = (0..<window).reversed().map { CivilDate(daysSinceEpoch: last.daysSinceEpoch - $0).description }
    var months: [String] = []
    var month = (last.year, last.month)
    for _ in 0..<max(1, (window + 29) / 30) {
      month = month.1 == 1 ? (month.0 - 1, 12) : (month.0, month.1 - 1)
      months.insert(String(month.0) + "-" + (month.1 < 10 ? "0" : "") + String(month.1), at: 0)
    }
    state.salesDays = try fetch(AppleRun.sales, vendor, days, done: state.salesDays, tokens, &report)
    state.subscriberDays = try fetch(
      AppleRun.subscriber, vendor, days, done: state.subscriberDays, tokens, &report)
    state.financialMonths = try fetch(
      AppleRun.financial, vendor, months, done: state.financialMonths, tokens, &report)
  }

  /// Fetches `kind` for each of `periods` not in `done`, saving the state after each file; returns the
  /// periods of the window now fetched (older ones are forgotten).
  private mutating func fetch(
    _ kind: ReportKind, _ vendor: String, _ periods: [String], done: [String], _ tokens: AppleTokens,
    _ report: inout FetchReport
  ) throws(FetchError) -> [String] {
    var fetched = Set(done).intersection(periods)
    var missing = 0
    for period in periods where !fetched.contains(period) {
      let query = (kind.filters + [("reportDate", period), ("vendorNumber", vendor)]).map {
        ("filter[\($0.0)]", $0.1)
      }
      let request = HTTPRequest(
        url: context.config.appStoreConnectURL + kind.path + AppleRun.queryString(query),
        headers: [("Accept", "application/a-gzip")])
      let response = try context.http.send(request, tokens: tokens)
      try context.http.require(response, for: request, accepting: [200, 404])
      if response.status == 404 {
        missing += 1
        continue
      }
      let name = kind.fileName(vendor, period)
      if let problem = GzipCheck.problem(response.body, name: name) {
        throw FetchError(
          .dataError, "\(request.label) (\(kind.label) \(period)): \(problem): \(response.excerpt)")
      }
      try context.output.write(response.body, to: "apple/reports/" + name)
      fetched.insert(period)
      report.records += 1
      let sorted = periods.filter { fetched.contains($0) }
      switch kind.label {
      case "sales": state.salesDays = sorted
      case "subscriber": state.subscriberDays = sorted
      default: state.financialMonths = sorted
      }
      try save()
    }
    context.progress.note(
      "fetch apple: \(kind.label) reports, \(fetched.count) of \(periods.count) periods fetched, \(missing) not (yet) available"
    )
    return periods.filter { fetched.contains($0) }
  }
}
