import Foundation
package import StoreReconCore

/// `storerecon settle`: appends decisions to `decisions.csv` for cases of a finished run
/// (docs/cases.md#settling-a-case). The keys are checked against that run's `cases.csv`, so a typo
/// settles nothing and says so.
package enum Settlement {
  /// What to settle.
  package struct Request: Sendable {
    /// The run folder whose `cases.csv` names the cases.
    package var folder: String
    /// The case keys (with `all`, more may be added).
    package var keys: [String]
    /// Every unsettled case (new, open, reopened) of the run.
    package var all: Bool
    package var reason: String
    package var by: String
    package var until: CivilDate?
    package var maxAmountMinor: Int64?

    /// Creates a request.
    package init(
      folder: String, keys: [String], all: Bool, reason: String, by: String, until: CivilDate?,
      maxAmountMinor: Int64?
    ) {
      self.folder = folder
      self.keys = keys
      self.all = all
      self.reason = reason
      self.by = by
      self.until = until
      self.maxAmountMinor = maxAmountMinor
    }
  }

  /// Appends one `accept` decision per key to the decisions file of `config`; returns the decisions
  /// written. An unknown key, an empty reason or name, or a run folder without `cases.csv` is an error.
  package static func settle(_ request: Request, config: RunConfig) throws(RunError) -> [CaseDecision] {
    let path = request.folder + "/cases.csv"
    guard let data = FileManager.default.contents(atPath: path),
      let text = String(data: data, encoding: .utf8)
    else {
      throw RunError(
        .missingInput, "\(path) does not exist: settle needs a finished run's folder (--date or --out)")
    }
    let records = DecisionsFile.parse(text)
    guard let header = records.first?.fields, let keyColumn = header.firstIndex(of: "case_key"),
      let stateColumn = header.firstIndex(of: "state")
    else {
      throw RunError(.dataError, "\(path) has no case_key and state columns")
    }
    var states: [String: String] = [:]
    var order: [String] = []
    for record in records.dropFirst() where record.fields.count > max(keyColumn, stateColumn) {
      let key = record.fields[keyColumn]
      if states[key] == nil { order.append(key) }
      states[key] = record.fields[stateColumn]
    }
    var keys: [String] = []
    for key in request.keys {
      guard states[key] != nil else {
        throw RunError(.usage, "unknown case key '\(key)': \(path) has no such case")
      }
      if !keys.contains(key) { keys.append(key) }
    }
    if request.all {
      let unsettled = Set([Case.State.new, .open, .reopened].map(\.rawValue))
      for key in order where unsettled.contains(states[key] ?? "") && !keys.contains(key) { keys.append(key) }
    }
    guard !keys.isEmpty else {
      throw RunError(
        .usage, request.all ? "\(path) has no unsettled case" : "name at least one case key, or --all")
    }
    var decisions: [CaseDecision] = []
    for key in keys {
      let fields = [
        key, CaseDecision.Verdict.accept.rawValue, request.reason, request.by,
        request.until?.description ?? "", request.maxAmountMinor.map { String($0) } ?? "",
      ]
      switch CaseDecision.parse(fields, line: 0) {
      case .success(let decision): decisions.append(decision)
      case .failure(let error): throw RunError(.usage, error.message)
      }
    }
    let file = config.decisions ?? config.resolve("decisions.csv")
    // The file as it is must read, so an appended line never hides a broken one.
    _ = try DecisionsFile.read(file)
    try DecisionsFile.append(decisions, to: file)
    return decisions
  }
}
