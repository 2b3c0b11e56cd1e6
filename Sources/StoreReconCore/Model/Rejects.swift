/// A rejected input row: which file, which line, why, and the row's text as read.
package struct Reject: Sendable, Equatable {
  package var file: String
  package var line: Int
  package var reason: String
  package var raw: String

  /// Creates a reject.
  package init(file: String, line: Int, reason: String, raw: String) {
    self.file = file
    self.line = line
    self.reason = reason
    self.raw = raw
  }
}

/// Read / accepted / rejected counts of one input file.
package struct InputCounts: Sendable, Equatable, Codable {
  package var read: Int = 0
  package var accepted: Int = 0
  package var rejected: Int = 0

  /// Creates zero counts.
  package init() {}

  /// Creates counts.
  package init(read: Int, accepted: Int, rejected: Int) {
    self.read = read
    self.accepted = accepted
    self.rejected = rejected
  }
}

/// Receives rejected rows. The run writes them to `rejects/<input>.csv`; tests keep them in memory.
package protocol RejectSink: AnyObject {
  /// Records one rejected row.
  func reject(_ reject: Reject)
}

/// A reject sink that keeps everything in memory.
package final class RejectList: RejectSink, @unchecked Sendable {
  /// Every reject received, in order.
  package private(set) var rejects: [Reject] = []

  /// Creates an empty list.
  package init() {}

  package func reject(_ reject: Reject) { rejects.append(reject) }
}
