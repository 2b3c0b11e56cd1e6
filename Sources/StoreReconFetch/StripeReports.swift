import StoreReconCore
import StoreReconSettings

/// The balance report step of `fetch stripe`: Stripe's `balance_change_from_activity.itemized.3` report
/// (every balance transaction with its gross, fee and net in major units, its reporting category and the
/// charge, invoice, subscription and payout it belongs to), one file per UTC month, through the Reports
/// API: `GET /v1/reporting/report_types/{type}` says up to when Stripe has the data, `POST
/// /v1/reporting/report_runs` starts a run over the month (or as much of it as Stripe has), `GET
/// /v1/reporting/report_runs/{id}` is asked until the run has `succeeded`, and the run's `result.url` is
/// downloaded with the same key. A month not over is run again once Stripe's data reach further; a month
/// whose file covers it whole is not asked for again.
struct StripeReports {
  /// The report type run (the latest version of Stripe's itemized balance change report).
  static let reportType = "balance_change_from_activity.itemized.3"
  /// The columns asked for, so the file's columns do not follow Stripe's default set.
  static let columns = [
    "balance_transaction_id", "created_utc", "available_on_utc", "currency", "gross", "fee", "net",
    "reporting_category", "source_id", "description", "customer_facing_amount", "customer_facing_currency",
    "automatic_payout_id", "automatic_payout_effective_at_utc", "customer_id", "charge_id",
    "payment_intent_id", "charge_created_utc", "invoice_id", "subscription_id", "payment_method_type",
  ]
  /// Seconds between two looks at a run still pending, and how many looks before the fetch stops (the
  /// next fetch waits for the same run).
  static let pollSeconds = 10.0
  static let maxPolls = 90

  let context: FetchContext
  let api: StripeAPI
  let backfillDays: Int

  /// What the step did.
  struct Outcome {
    var runs = 0
    var files = 0
    /// Stripe's data reach up to here (seconds since 1970).
    var availableEnd: Int64 = 0
  }

  /// The file of `month` (`YYYY-MM`), relative to `fetch.into`.
  static func path(_ month: String) -> String {
    "stripe/reports/balance_change_from_activity_itemized_\(month).csv"
  }

  func run(_ state: inout StripeFetchState, save: (StripeFetchState) throws(FetchError) -> Void)
    throws(FetchError) -> Outcome
  {
    let type = try api.get("/v1/reporting/report_types/" + StripeReports.reportType)
    guard let start = StripeObjectFetch.integer(type.object["data_available_start"]),
      let end = StripeObjectFetch.integer(type.object["data_available_end"]), start < end
    else {
      throw FetchError(.dataError, "\(type.request.label): no data_available_start and data_available_end")
    }
    var outcome = Outcome(availableEnd: end)
    let now = Int64(context.clock.now())
    var month =
      state.reportsFrom.flatMap(StripeReports.monthStart)
      ?? StripeReports.monthOf(
        now - Int64(backfillDays) * 86_400)
    month = max(month, StripeReports.monthOf(start))
    state.reportsFrom = state.reportsFrom ?? StripeReports.name(month)
    while month.daysSinceEpoch * 86_400 < end {
      let next = StripeReports.nextMonth(month)
      let name = StripeReports.name(month)
      let from = max(month.daysSinceEpoch * 86_400, start)
      let to = min(next.daysSinceEpoch * 86_400, end)
      let done = state.reportMonths[name]
      if from < to, done?.complete != true, (done?.intervalEnd ?? 0) < to {
        try runMonth(name, from, to, complete: to == next.daysSinceEpoch * 86_400, &state, &outcome)
        try save(state)
      }
      month = next
    }
    return outcome
  }

  /// Runs (or waits for the pending run of) one month's report and writes its file.
  private func runMonth(
    _ name: String, _ from: Int64, _ to: Int64, complete: Bool, _ state: inout StripeFetchState,
    _ outcome: inout Outcome
  ) throws(FetchError) {
    var run: StripeAPI.Answer
    if let pending = state.pendingRun, pending.month == name, pending.intervalStart == from,
      pending.intervalEnd == to
    {
      run = try api.get("/v1/reporting/report_runs/" + StripeAPI.escape(pending.id))
    } else {
      var form = [
        ("report_type", StripeReports.reportType), ("parameters[interval_start]", String(from)),
        ("parameters[interval_end]", String(to)),
      ]
      form += StripeReports.columns.map { ("parameters[columns][]", $0) }
      run = try api.post(
        "/v1/reporting/report_runs", form: form,
        idempotencyKey: "storerecon-\(StripeReports.reportType)-\(from)-\(to)")
      outcome.runs += 1
    }
    guard let id = run.object["id"] as? String, !id.isEmpty else {
      throw FetchError(.dataError, "\(run.request.label): the report run has no id")
    }
    state.pendingRun = StripeFetchState.PendingRun(id: id, month: name, intervalStart: from, intervalEnd: to)
    var polls = 0
    while run.object["status"] as? String == "pending" {
      guard polls < StripeReports.maxPolls else {
        throw FetchError(
          .unavailable,
          "stripe: the balance report run \(id) for \(name) is still running after \(polls) looks; the next fetch waits for it"
        )
      }
      context.clock.sleep(StripeReports.pollSeconds)
      polls += 1
      run = try api.get("/v1/reporting/report_runs/" + StripeAPI.escape(id))
    }
    guard run.object["status"] as? String == "succeeded" else {
      state.pendingRun = nil
      let said = (run.object["error"] as? String).map { ": \($0)" } ?? ""
      throw FetchError(
        .unavailable,
        "\(run.request.label): the balance report run for \(name) ended \(run.object["status"] as? String ?? "without a status")\(said)"
      )
    }
    guard let result = run.object["result"] as? [String: Any], let url = result["url"] as? String else {
      throw FetchError(.dataError, "\(run.request.label): the succeeded run has no result.url")
    }
    let (request, bytes) = try api.download(url)
    try StripeReports.check(bytes, request)
    let path = StripeReports.path(name)
    try context.output.write(bytes, to: path)
    outcome.files += 1
    state.reportMonths[name] = StripeFetchState.ReportMonth(
      intervalStart: from, intervalEnd: to, complete: complete, path: path)
    state.pendingRun = nil
  }

  /// Throws (data error) unless `bytes` are UTF-8 text whose first line is the report's header.
  static func check(_ bytes: [UInt8], _ request: HTTPRequest) throws(FetchError) {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw FetchError(.dataError, "\(request.label): the report is not UTF-8 text")
    }
    let header = text.prefix { $0 != "\n" && $0 != "\r" }
    guard header.contains("balance_transaction_id") else {
      let what =
        text.hasPrefix("<") ? "an HTML page" : "not the balance report's CSV (no balance_transaction_id)"
      throw FetchError(.dataError, "\(request.label): the report is \(what)")
    }
  }

  /// The first day of the month of `seconds` since 1970 (UTC).
  static func monthOf(_ seconds: Int64) -> CivilDate {
    let day = CivilDate(daysSinceEpoch: seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
    return CivilDate(year: day.year, month: day.month, day: 1)
  }

  static func nextMonth(_ month: CivilDate) -> CivilDate {
    month.month == 12
      ? CivilDate(year: month.year + 1, month: 1, day: 1)
      : CivilDate(year: month.year, month: month.month + 1, day: 1)
  }

  /// `YYYY-MM`.
  static func name(_ month: CivilDate) -> String { String(month.description.prefix(7)) }

  /// The first day of `YYYY-MM`.
  static func monthStart(_ name: String) -> CivilDate? { CivilDate.parse(name + "-01") }
}
