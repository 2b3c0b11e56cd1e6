package import StoreReconCore

extension ReportTables {
  /// `cases.csv`: every case of the run and every case the previous run had that is gone (`resolved`),
  /// with its state, first-seen date, age, and the decision that applies (docs/cases.md#casescsv).
  package static func casesCSV(_ book: CaseBook) -> [UInt8] {
    var csv = CSVWriter(header: [
      "case_key", "state", "first_seen", "age_days", "source", "kind", "reason", "store", "subject",
      "user_id",
      "product_id", "currency", "amount_minor", "decision", "decided_by", "decision_reason", "until",
      "max_amount_minor", "note",
    ])
    for c in book.cases {
      let d = c.decision
      csv.row([
        c.key, c.state.rawValue, c.firstSeen.description, String(c.ageDays), c.source.rawValue, c.kind,
        c.reason,
        c.store, c.subject, c.userId, c.productId, c.currency ?? "", c.amountMinor.map { String($0) } ?? "",
        d?.verdict.rawValue ?? "", d?.by ?? "", d?.reason ?? "", d?.until?.description ?? "",
        d?.maxAmountMinor.map { String($0) } ?? "", c.note,
      ])
    }
    return csv.bytes
  }

  /// The case columns a finding or tie-out row gains: state, first seen, age in days (empty where the
  /// row has no case).
  package static func caseColumns(_ c: Case?) -> [String] {
    guard let c else { return ["", "", ""] }
    return [c.state.rawValue, c.firstSeen.description, String(c.ageDays)]
  }
}
