/// A rejected input row: which file, which line, why, and the row's text as read.
public struct Reject: Sendable, Equatable {
  public var file: String
  public var line: Int
  public var reason: String
  public var raw: String

  /// Creates a reject.
  public init(file: String, line: Int, reason: String, raw: String) {
    self.file = file
    self.line = line
    self.reason = reason
    self.raw = raw
  }
}

/// Read / accepted / rejected counts of one input file.
public struct InputCounts: Sendable, Equatable, Codable {
  public var read: Int = 0
  public var accepted: Int = 0
  public var rejected: Int = 0

  /// Creates zero counts.
  public init() {}

  /// Creates counts.
  public init(read: Int, accepted: Int, rejected: Int) {
    self.read = read
    self.accepted = accepted
    self.rejected = rejected
  }
}

/// Receives rejected rows. The run writes them to `rejects/<input>.csv`; tests keep them in memory.
public protocol RejectSink: AnyObject {
  /// Records one rejected row.
  func reject(_ reject: Reject)
}

/// A reject sink that keeps everything in memory.
public final class RejectList: RejectSink, @unchecked Sendable {
  /// Every reject received, in order.
  public private(set) var rejects: [Reject] = []

  /// Creates an empty list.
  public init() {}

  public func reject(_ reject: Reject) { rejects.append(reject) }
}
