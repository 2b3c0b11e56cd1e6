package import StoreReconCore

/// Compares a run's tie-out with the differences the demo world planted in its store reports.
///
/// Precision and recall are 1.0 when every planted cell and order is reported with its status, no
/// other cell or order has a status other than `match`, and every negative control is there as `match`.
package enum DemoTieOutCheck {
  /// What the comparison found.
  package struct Result: Sendable, Equatable {
    /// Planted cells the run did not report with their status.
    package var missedCells: [PlantedTieOutCell] = []
    /// Non-`match` cells of the run that were not planted.
    package var unexpectedCells: [PlantedTieOutCell] = []
    /// Planted orders the run did not report with their status.
    package var missedOrders: [PlantedTieOutOrder] = []
    /// Non-`match` orders of the run that were not planted.
    package var unexpectedOrders: [PlantedTieOutOrder] = []
    /// Negative controls missing from the run's tie-out (a control that is not `match` is unexpected).
    package var missingControls: [DemoTieOutControl] = []

    /// Nothing missed, nothing unexpected.
    package var isExact: Bool {
      missedCells.isEmpty && unexpectedCells.isEmpty && missedOrders.isEmpty && unexpectedOrders.isEmpty
        && missingControls.isEmpty
    }

    /// Planted items missed (cells, orders and controls).
    package var missedCount: Int { missedCells.count + missedOrders.count + missingControls.count }
    /// Reported items not planted.
    package var unexpectedCount: Int { unexpectedCells.count + unexpectedOrders.count }

    /// What `storerecon demo` prints: one line, and on a mismatch up to 20 missed and 20 unexpected
    /// lines below it. `planted` is the number of planted differences.
    package func text(planted: Int) -> String {
      guard !isExact else {
        return
          "tie-out check: all \(planted) planted tie-out differences reported, nothing else (precision 1.0, recall 1.0)\n"
      }
      var text =
        "tie-out check: MISMATCH — \(missedCount) planted tie-out difference(s) missed, \(unexpectedCount) unexpected\n"
      for line in lines(limit: 20) { text += "  \(line)\n" }
      return text
    }

    /// Up to `limit` lines naming what was missed, then up to `limit` naming what was unexpected.
    package func lines(limit: Int = 20) -> [String] {
      let missed =
        missedCells.map { "missed     \($0.line)" } + missedOrders.map { "missed     \($0.line)" }
        + missingControls.map { "missed     control \($0.cell.line) (\($0.what)): not in the tie-out" }
      let unexpected =
        unexpectedCells.map { "unexpected \($0.line)" } + unexpectedOrders.map { "unexpected \($0.line)" }
      return Array(missed.prefix(limit)) + Array(unexpected.prefix(limit))
    }
  }

  /// Compares `tieOut` with the planted tie-out of `truth`.
  package static func check(_ tieOut: TieOut, truth: DemoTruth) -> Result {
    check(tieOut, planted: truth.tieOut)
  }

  /// Compares `tieOut` with `planted`.
  package static func check(_ tieOut: TieOut, planted: DemoTieOutTruth) -> Result {
    var result = Result()
    let reportedCells = Set(tieOut.cells.filter { $0.status != .match }.map(PlantedTieOutCell.init))
    let plantedCells = Set(planted.cells)
    result.missedCells = plantedCells.subtracting(reportedCells).sorted()
    result.unexpectedCells = reportedCells.subtracting(plantedCells).sorted()
    let reportedOrders = Set(tieOut.orders.filter { $0.status != .match }.map(PlantedTieOutOrder.init))
    let plantedOrders = Set(planted.orders)
    result.missedOrders = plantedOrders.subtracting(reportedOrders).sorted()
    result.unexpectedOrders = reportedOrders.subtracting(plantedOrders).sorted()
    let present = Set(tieOut.cells.map { PlantedTieOutCell($0) }.map(\.keyOnly))
    result.missingControls = planted.controls.filter { !present.contains($0.cell.keyOnly) }.sorted()
    return result
  }
}

extension PlantedTieOutCell {
  /// The cell's key with status `match` (for looking a cell up whatever its status).
  var keyOnly: PlantedTieOutCell {
    var copy = self
    copy.status = .match
    return copy
  }
}
