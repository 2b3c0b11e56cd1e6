package import StoreReconCore

/// Renders the core's tables as the CSV reports of docs/reports.md. Writers decide nothing.
package enum ReportTables {
  /// The columns of `findings.csv`: `what_to_do` and `docs` (the next step of the reason and its link,
  /// docs/reports.md#what-to-do-and-docs) follow `detail`; then the finding's case (docs/cases.md).
  package static let findingsHeader = [
    "finding_key", "kind", "reason", "store", "chain_key", "user_id", "product_id", "currency",
    "amount_minor", "since", "detail", "what_to_do", "docs", "state", "first_seen", "age_days",
  ]

  /// `findings.csv`; `docsBase` (the config's `docsBaseURL`) starts the `docs` links; `cases` gives each
  /// finding its state, first-seen date and age.
  package static func findingsCSV(
    _ findings: [Finding], docsBase: String = NextStep.defaultDocsBase, cases: [String: Case] = [:]
  ) -> [UInt8] {
    var csv = CSVWriter(header: findingsHeader)
    for f in findings {
      let step = NextStep.of(f.reason, store: f.store)
      csv.row(
        [
          f.key, f.kind.rawValue, f.reason.rawValue, f.store.rawValue, f.chainKey, f.userId, f.productId,
          f.currency?.code ?? "", f.amountMinor.map { String($0) } ?? "", f.since ?? "", f.detail,
          step?.whatToDo ?? "", step?.link(base: docsBase) ?? "",
        ] + caseColumns(cases[f.key]))
    }
    return csv.bytes
  }

  /// `revenue.csv`; `proceeds_minor` and `proceeds_source` (`settled`, `reported`, `estimated`), then
  /// Stripe's `disputed_minor` and `dispute_fees_minor`, come after the columns it had before them.
  package static func revenueCSV(_ rows: [RevenueRow]) -> [UInt8] {
    var csv = CSVWriter(header: [
      "day", "store", "product_id", "currency", "charges", "gross_minor", "tax_minor", "refunds_minor",
      "refund_count", "proceeds_minor", "proceeds_source", "disputed_minor", "dispute_fees_minor",
    ])
    for r in rows {
      csv.row([
        r.day.description, r.store.rawValue, r.productId, r.currency.code, String(r.charges),
        String(r.grossMinor),
        String(r.taxMinor), String(r.refundsMinor), String(r.refundCount), String(r.proceedsMinor),
        r.proceedsSource.rawValue, String(r.disputedMinor), String(r.disputeFeesMinor),
      ])
    }
    return csv.bytes
  }

  /// `counts.csv`; `report_paid_units` (empty where no store report covers the day) and `detail` come
  /// after the columns it had before them.
  package static func countsCSV(_ rows: [CountsRow]) -> [UInt8] {
    var csv = CSVWriter(header: [
      "store", "product_id", "chains_paid_through", "entitlements_active", "difference", "report_paid_units",
      "detail",
    ])
    for r in rows {
      csv.row([
        r.store.rawValue, r.productId, String(r.chainsPaidThrough), String(r.entitlementsActive),
        String(r.difference), r.reportPaidUnits.map { String($0) } ?? "", r.detail,
      ])
    }
    return csv.bytes
  }

  /// `grants.csv`: goodwill rows and goodwill/promo/manual entitlements, which are never findings.
  package static func grantsCSV(goodwill: [GoodwillGrant], entitlements: [Entitlement], asOf t: Instant)
    -> [UInt8]
  {
    grantsCSV(GrantRow.rows(goodwill: goodwill, entitlements: entitlements, asOf: t))
  }

  /// `grants.csv` from rows already in report order.
  package static func grantsCSV(_ rows: [GrantRow]) -> [UInt8] {
    var csv = CSVWriter(header: [
      "source", "grant_id", "user_id", "product_id", "starts_at", "ends_at", "active", "reason",
    ])
    for r in rows { csv.row(r.csvFields) }
    return csv.bytes
  }

  /// `rejects/<input>.csv`; `raw` is the line's ``rawExcerpt(_:)``.
  package static func rejectsCSV(_ rejects: [Reject]) -> [UInt8] {
    var csv = CSVWriter(header: ["file", "line", "reason", "raw"])
    for r in rejects { csv.row([r.file, String(r.line), r.reason, rawExcerpt(r.raw)]) }
    return csv.bytes
  }

  /// The most bytes of a rejected line a report shows.
  package static let rawExcerptBytes = 512

  /// `raw` as the reports show it: whole up to ``rawExcerptBytes`` bytes of UTF-8, else its first
  /// characters within that many bytes and `…` (a rejected line may hold a token or a whole payload).
  package static func rawExcerpt(_ raw: String) -> String {
    guard raw.utf8.count > rawExcerptBytes else { return raw }
    var kept = String.UnicodeScalarView()
    var bytes = 0
    for scalar in raw.unicodeScalars {
      let n = scalar.utf8.count
      guard bytes + n <= rawExcerptBytes else { break }
      kept.append(scalar)
      bytes += n
    }
    return String(kept) + "…"
  }
}
