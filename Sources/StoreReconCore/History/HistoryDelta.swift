/// What changed since the previous run: counts of new, still open and resolved findings.
package struct HistoryDelta: Sendable, Equatable {
  /// The latest earlier report date with a recorded run; `nil` on the first run.
  package var previousDate: CivilDate?
  /// Findings the previous run did not have.
  package var newCount: Int
  /// Findings the previous run had too.
  package var openCount: Int
  /// Findings of the previous run this run no longer has.
  package var resolvedCount: Int

  /// Creates a delta.
  package init(previousDate: CivilDate?, newCount: Int, openCount: Int, resolvedCount: Int) {
    self.previousDate = previousDate
    self.newCount = newCount
    self.openCount = openCount
    self.resolvedCount = resolvedCount
  }
}
