package import Testing

package import StoreReconCore

/// What one importer run produced.
package struct ImportResult<Row> {
  package var rows: [Row] = []
  package var rejects: [Reject] = []
  package var counts = InputCounts()

  package init(rows: [Row] = [], rejects: [Reject] = [], counts: InputCounts = InputCounts()) {
    self.rows = rows
    self.rejects = rejects
    self.counts = counts
  }

  /// `read = accepted + rejected`, and the counts match what was emitted and rejected.
  package func checkCounts(sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(counts.read == counts.accepted + counts.rejected, sourceLocation: sourceLocation)
    #expect(counts.accepted == rows.count, sourceLocation: sourceLocation)
    #expect(counts.rejected == rejects.count, sourceLocation: sourceLocation)
  }
}
