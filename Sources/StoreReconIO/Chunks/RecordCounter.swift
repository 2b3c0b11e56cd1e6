package import StoreReconCore

/// Counts rows and turns each one's outcome into an emitted record or a reject.
package struct RecordCounter {
  package var counts = InputCounts()
  let displayName: String
  let rejects: any RejectSink

  package init(displayName: String, rejects: any RejectSink) {
    self.displayName = displayName
    self.rejects = rejects
  }

  /// Counts one accepted row.
  package mutating func accept() {
    counts.read += 1
    counts.accepted += 1
  }

  /// Counts `n` accepted rows.
  mutating func accept(_ n: Int) {
    counts.read += n
    counts.accepted += n
  }

  /// Counts one rejected row and reports it.
  package mutating func reject(line: Int, reason: String, raw: @autoclosure () -> String) {
    counts.read += 1
    counts.rejected += 1
    rejects.reject(Reject(file: displayName, line: line, reason: reason, raw: raw()))
  }
}
