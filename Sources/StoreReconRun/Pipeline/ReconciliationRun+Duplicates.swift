package import StoreReconCore
package import StoreReconPlatform
import StoreReconReports
import StoreReconIO

extension ReconciliationRun {
  /// Takes the records read more than once out of their input's accepted count: a duplicate or an
  /// older state counts as such (read = accepted + rejected + duplicates + superseded); a conflict is
  /// rejected in its input's rejects file, naming both lines.
  package static func applyDuplicates(
    _ duplicates: [RecordDuplicate], to inputs: inout Inputs, progress: any ProgressSink
  ) {
    for d in duplicates {
      let i = Int(d.droppedInput)
      guard inputs.reports.indices.contains(i) else { continue }
      // A record the notification log carried is not a row of its own: the log's row stays accepted
      // (its notification is read whatever became of its record), so nothing is taken off its counts.
      if isNotificationLog(inputs.reports[i]) { continue }
      inputs.reports[i].counts.accepted -= 1
      switch d.kind {
      case .duplicate: inputs.reports[i].duplicates += 1
      case .superseded: inputs.reports[i].superseded += 1
      case .conflict:
        inputs.reports[i].counts.rejected += 1
        let kept = location(d.keptInput, d.keptLine, inputs.reports)
        inputs.rejectFiles[i].reject(
          Reject(
            file: inputs.reports[i].path, line: d.droppedLine,
            reason: "conflicting duplicate: \(d.store.rawValue) \(d.record) \(d.id) was read at \(kept) "
              + "with other content (that one is kept)", raw: ""))
      }
    }
    if !duplicates.isEmpty { progress.note(duplicatesLine(duplicates)) }
  }

  /// Takes the notification-log rows that repeat an earlier row's notification off their input's
  /// accepted count: a redelivery counts as a duplicate; a row that disagrees with the kept one is
  /// rejected, naming the kept row.
  package static func applyNotificationRepeats(
    _ repeats: [NotificationRepeats.Repeat], to inputs: inout Inputs, progress: any ProgressSink
  ) {
    var redelivered = 0
    for r in repeats {
      let i = Int(r.dropped.file)
      guard inputs.reports.indices.contains(i) else { continue }
      let reason = r.conflict.map { why in
        "conflicting notification: the notification_id was read at "
          + "\(location(r.kept.file, Int(r.kept.line), inputs.reports)) with other content (\(why)); that one is kept"
      }
      if takeRepeat(i, line: Int(r.dropped.line), rejection: reason, from: &inputs) { redelivered += 1 }
    }
    if !repeats.isEmpty {
      progress.note(
        "notification log: \(redelivered) redelivered row(s) counted once, "
          + "\(repeats.count - redelivered) conflicting row(s) rejected")
    }
  }

  /// Takes the app rows that repeat an earlier row's `credit_id` or `entitlement_id` off their input's
  /// accepted count: the same row again counts as a duplicate; a row with other content is rejected,
  /// naming the row kept (docs/contracts.md#one-row-per-id).
  package static func applyAppRowRepeats(
    _ repeats: [AppRowRepeats.Repeat], to inputs: inout Inputs, progress: any ProgressSink
  ) {
    var same = 0
    for r in repeats {
      let i = Int(r.dropped.file)
      guard inputs.reports.indices.contains(i) else { continue }
      let reason = r.conflict.map { column in
        "repeated \(r.column) '\(RawText.truncated(r.id))': first read at "
          + "\(location(r.kept.file, Int(r.kept.line), inputs.reports)) with another \(column) (that one is kept)"
      }
      if takeRepeat(i, line: Int(r.dropped.line), rejection: reason, from: &inputs) { same += 1 }
    }
    if !repeats.isEmpty {
      progress.note(
        "app rows: \(same) repeated row(s) counted once, \(repeats.count - same) row(s) repeating an id "
          + "with other content rejected")
    }
  }

  /// Takes row `line` of input `i` off its accepted count: as a duplicate where `rejection` is `nil`
  /// (returns true), else as a rejected row with that reason (returns false).
  static func takeRepeat(_ i: Int, line: Int, rejection: String?, from inputs: inout Inputs) -> Bool {
    inputs.reports[i].counts.accepted -= 1
    guard let rejection else {
      inputs.reports[i].duplicates += 1
      return true
    }
    inputs.reports[i].counts.rejected += 1
    inputs.rejectFiles[i].reject(Reject(file: inputs.reports[i].path, line: line, reason: rejection, raw: ""))
    return false
  }

  /// Whether `report` is the notification log's (whose records repeat the exports' as a rule).
  package static func isNotificationLog(_ report: InputReport) -> Bool {
    report.role == "app.notifications" || report.role == "app_store.notification_history"
  }

  /// The records read again that duplicates.csv lists: all but a notification's record that repeats
  /// (or is an older state of) a record read elsewhere — a log holds each transaction once per
  /// notification about it; a conflict is listed wherever it was read.
  package static func listed(_ duplicates: [RecordDuplicate], reports: [InputReport]) -> [RecordDuplicate] {
    duplicates.filter { d in
      let i = Int(d.droppedInput)
      guard d.kind != .conflict, reports.indices.contains(i) else { return true }
      return !isNotificationLog(reports[i])
    }.sorted(by: RunPartial.duplicateOrder)
  }

  /// `file line N` of input `index`.
  package static func location(_ index: Int32, _ line: Int, _ reports: [InputReport]) -> String {
    let file = reports.indices.contains(Int(index)) ? reports[Int(index)].path : "?"
    return line > 0 ? "\(file) line \(line)" : file
  }

  /// The summary's line on records read twice.
  package static func duplicatesLine(_ duplicates: [RecordDuplicate]) -> String {
    guard !duplicates.isEmpty else { return "Read twice: no store record (duplicates.csv is empty)." }
    var n: [RecordDuplicate.Kind: Int] = [:]
    for d in duplicates { n[d.kind, default: 0] += 1 }
    return "Read twice: \(duplicates.count) store records counted once (\(n[.duplicate] ?? 0) duplicate, "
      + "\(n[.superseded] ?? 0) superseded by a later state, \(n[.conflict] ?? 0) conflicting and rejected): "
      + "see duplicates.csv."
  }
}
