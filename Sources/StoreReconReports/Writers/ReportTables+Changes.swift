package import StoreReconCore

extension ReportTables {
  /// `changes.csv`: findings new, still open and resolved since the previous run (with run history).
  package static func changesCSV(_ changes: [FindingChange]) -> [UInt8] {
    var csv = CSVWriter(header: [
      "state", "finding_key", "kind", "reason", "store", "chain_key", "user_id", "product_id", "currency",
      "amount_minor", "since",
    ])
    for c in changes {
      let f = c.finding
      csv.row([
        c.state.rawValue, f.key, f.kind, f.reason, f.store, f.chainKey, f.userId, f.productId,
        f.currency ?? "",
        f.amountMinor.map { String($0) } ?? "", c.since.description,
      ])
    }
    return csv.bytes
  }
}
