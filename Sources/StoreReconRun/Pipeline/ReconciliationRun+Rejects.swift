package import StoreReconCore
package import StoreReconPlatform

extension ReconciliationRun {
  /// Stops the run (exit 65, one line) when the input just read is damaged (config `damaged`), unless
  /// `--allow-damaged`: then the summary draws attention to it.
  package static func checkDamaged(
    _ report: InputReport, rejects: RejectFileSink, rules: RejectRules, attention: inout [String],
    progress: any ProgressSink
  ) throws(RunError) {
    guard let reason = rules.damaged.reason(report.counts) else { return }
    let first = rejects.first.first.map { "; first: line \($0.line): \($0.reason)" } ?? ""
    guard rules.allowDamaged else {
      throw RunError(
        .dataError,
        "\(report.role) \(report.path) is damaged: \(reason)\(first) — the run stops "
          + "(--allow-damaged reconciles it anyway)")
    }
    let line = "\(report.role) \(report.path) is damaged: \(reason), see \(report.rejectsFile)"
    progress.note("warning: " + line + " (--allow-damaged)")
    attention.append(line)
  }

  /// The summary's line when the entitlements contract has no row while the stores' exports hold
  /// records: every purchase would look unclaimed (a header-only file, or a query returning nothing).
  package static func emptyContractLine(_ reports: [InputReport]) -> String? {
    let storeRoles: Set<String> = [
      "app_store.transactions", "play.sales", "play.subscriptions", "play.voided",
    ]
    let storeRecords = reports.filter { storeRoles.contains($0.role) }.reduce(0) { $0 + $1.counts.accepted }
    let contract = reports.filter { $0.role == "app.entitlements" }
    guard storeRecords > 0, !contract.isEmpty, contract.allSatisfy({ $0.counts.read == 0 && $0.error == nil })
    else { return nil }
    let names = contract.map(\.path).joined(separator: ", ")
    return "app.entitlements \(names) holds no row while the store exports hold \(storeRecords) records: "
      + "every purchase is reported as unclaimed — check the contract's export"
  }

  /// The rejects the workbook shows: each input's first ones, at most ``RejectFileSink/shownLimit`` in
  /// all; for an input with more, a last row pointing to its rejects file.
  package static func shownRejects(_ sinks: [RejectFileSink]) -> [Reject] {
    var shown: [Reject] = []
    for sink in sinks where sink.count > 0 {
      let room = max(0, RejectFileSink.shownLimit - shown.count)
      let taken = sink.first.prefix(room)
      shown.append(contentsOf: taken)
      guard taken.count < sink.count, let file = sink.first.first?.file else { continue }
      shown.append(
        Reject(
          file: file, line: 0,
          reason: "\(sink.count - taken.count) more rejected rows of this input not shown here: "
            + "every one is in \(sink.name)", raw: ""))
    }
    return shown
  }

  /// Closes every rejects file; their names, sizes and checksums for the manifest.
  package static func finishRejects(_ sinks: [RejectFileSink]) throws(RunError) -> [(
    name: String, bytes: Int64, sha256: String
  )] {
    var done: [(name: String, bytes: Int64, sha256: String)] = []
    for sink in sinks {
      let (bytes, sha) = try sink.finish()
      done.append((sink.name, bytes, sha))
    }
    return done
  }
}
