/// What one worker read of one engine-keyed input (docs/partitions.md#the-worker-protocol): its
/// share of the lines, counted and checked as a run reads a file, and the rejects among them. The
/// merge adds the partitions' shares up instead of reading the input again.
package struct EngineInput: Sendable, Equatable {
  package var counts = InputCounts()
  /// Its rows that repeated an app row's id with the same content (docs/contracts.md#one-row-per-id).
  package var duplicates = 0
  package var firstAt: Instant?
  package var lastAt: Instant?
  package var unverified: Int?
  package var unpriced: Int?
  /// How its signatures were checked (the same in every partition).
  package var signatures: String?
  /// Why the input could not be read whole, if it could not.
  package var error: String?
  /// Its rejected rows, in the order the worker found them.
  package var rejects: [Reject] = []

  /// Nothing read yet.
  package init() {}

  /// Two shares of one input added up: counts summed (an overflow is an error), the earliest first
  /// and the latest last instant, the first error, the rejects put in line order (a line is in one
  /// share only, so the order within a line is kept).
  package func adding(_ other: EngineInput) -> EngineInput? {
    var out = self
    guard let read = Self.sum(counts.read, other.counts.read),
      let accepted = Self.sum(counts.accepted, other.counts.accepted),
      let rejected = Self.sum(counts.rejected, other.counts.rejected),
      let duplicates = Self.sum(duplicates, other.duplicates)
    else { return nil }
    out.duplicates = duplicates
    out.counts = InputCounts(read: read, accepted: accepted, rejected: rejected)
    out.firstAt = [firstAt, other.firstAt].compactMap { $0 }.min()
    out.lastAt = [lastAt, other.lastAt].compactMap { $0 }.max()
    out.unverified = Self.optionalSum(unverified, other.unverified)
    out.unpriced = Self.optionalSum(unpriced, other.unpriced)
    out.signatures = signatures ?? other.signatures
    out.error = error ?? other.error
    out.rejects = Self.inLineOrder(rejects, other.rejects)
    return out
  }

  static func sum(_ a: Int, _ b: Int) -> Int? {
    let (s, overflow) = a.addingReportingOverflow(b)
    return overflow ? nil : s
  }

  static func optionalSum(_ a: Int?, _ b: Int?) -> Int? {
    guard let a else { return b }
    guard let b else { return a }
    return sum(a, b)
  }

  /// Two runs of rejects, each in line order, merged into one (stable: `a`'s first on a tie).
  static func inLineOrder(_ a: [Reject], _ b: [Reject]) -> [Reject] {
    guard !a.isEmpty else { return b }
    guard !b.isEmpty else { return a }
    var out: [Reject] = []
    out.reserveCapacity(a.count + b.count)
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      if j == b.count || (i < a.count && a[i].line <= b[j].line) {
        out.append(a[i])
        i += 1
      } else {
        out.append(b[j])
        j += 1
      }
    }
    return out
  }
}

extension InputReport {
  /// What a worker's partial says of this input (its rejects aside).
  package var engineShare: EngineInput {
    var e = EngineInput()
    (e.counts, e.firstAt, e.lastAt, e.duplicates) = (counts, firstAt, lastAt, duplicates)
    (e.signatures, e.unverified, e.unpriced, e.error) = (signatures, unverified, unpriced, error)
    return e
  }

  /// Takes the counts and the rest of what the workers' partials say of this input.
  package mutating func take(_ e: EngineInput) {
    (counts, firstAt, lastAt, duplicates) = (e.counts, e.firstAt, e.lastAt, e.duplicates)
    (signatures, unverified, unpriced, error) = (e.signatures, e.unverified, e.unpriced, e.error)
  }
}
