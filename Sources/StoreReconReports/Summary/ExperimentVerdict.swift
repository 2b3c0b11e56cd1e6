/// One price test's verdict as the summary prints it: plain text values, filled by the experiment
/// readout; `nil` in ``SummaryFacts`` prints "not configured".
package struct ExperimentVerdict: Sendable, Equatable {
  /// One arm's line: its id and a few figures already formatted by the readout.
  package struct Arm: Sendable, Equatable {
    /// Arm id (`control`, `high`).
    package var id: String
    /// Column name → formatted value, in display order (`("assigned", "2,412")`, `("conversion", "4.1% [3.4%, 4.9%]")`).
    package var figures: [(String, String)]
    /// Figure name → how its cell is tinted (P(best): green when clearly best, red when clearly not).
    package var tints: [String: Tint] = [:]

    /// Creates an arm line.
    package init(id: String, figures: [(String, String)]) {
      self.id = id
      self.figures = figures
    }

    package static func == (lhs: Arm, rhs: Arm) -> Bool {
      lhs.id == rhs.id && lhs.figures.map(\.0) == rhs.figures.map(\.0)
        && lhs.figures.map(\.1) == rhs.figures.map(\.1) && lhs.tints == rhs.tints
    }
  }

  /// How a figure's cell is tinted in the HTML summary and the workbook.
  package enum Tint: String, Sendable, Equatable {
    /// Green: good news (P(best) at 95 % or more).
    case good
    /// Red: bad news (P(best) at 5 % or less).
    case bad
  }

  /// Experiment id (`paywall-price-2026-09`).
  package var experimentId: String
  /// The verdict in a few words (`high wins on revenue per user`, `inconclusive`, `immature`).
  package var verdict: String
  /// Further sentences (sample-ratio check, maturity), each printed on its own line.
  package var notes: [String]
  /// Per-arm figures.
  package var arms: [Arm]
  /// Each challenger's difference in revenue per assigned user to control with its bootstrap interval
  /// (reporting minor units, a statistic) for the forest plot, and how to print such a value.
  package var differences: [SVGChart.Estimate] = []
  package var differenceLabel: @Sendable (Double) -> String = { ExperimentVerdict.plain($0) }

  /// Creates a verdict.
  package init(experimentId: String, verdict: String, notes: [String] = [], arms: [Arm] = []) {
    self.experimentId = experimentId
    self.verdict = verdict
    self.notes = notes
    self.arms = arms
  }

  /// A value with no unit, rounded to a whole number.
  static func plain(_ v: Double) -> String {
    guard v.isFinite, abs(v) < 9e18 else { return "?" }
    return Grouped.integer(Int64(v.rounded(.toNearestOrEven)))
  }

  package static func == (lhs: ExperimentVerdict, rhs: ExperimentVerdict) -> Bool {
    lhs.experimentId == rhs.experimentId && lhs.verdict == rhs.verdict && lhs.notes == rhs.notes
      && lhs.arms == rhs.arms && lhs.differences == rhs.differences
  }
}
