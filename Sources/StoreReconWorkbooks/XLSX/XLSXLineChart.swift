import StoreReconReports
/// A native Excel line chart whose series read their values from worksheet ranges.
package struct XLSXLineChart: Sendable, Equatable {
  /// One line: its legend name, the x-axis categories and the y values.
  package struct Series: Sendable, Equatable {
    /// Legend name.
    package var name: String
    /// Categories (x axis): dates or labels.
    package var categories: XLSXRange
    /// Values (y axis): numbers.
    package var values: XLSXRange

    /// Creates a series.
    package init(name: String, categories: XLSXRange, values: XLSXRange) {
      self.name = name
      self.categories = categories
      self.values = values
    }
  }

  /// How the series are drawn.
  package enum Style: Sendable, Equatable {
    /// One line per series.
    case lines
    /// A forest plot: the series are an interval's low, estimate and high per category, drawn as
    /// markers joined by a high-low bar (the estimate a circle, the ends dashes).
    case forest
  }

  /// Chart title.
  package var title: String
  /// Lines (the default) or a forest plot.
  package var style = Style.lines
  /// Axis titles; `nil` leaves the axis untitled.
  package var xAxisTitle: String?
  package var yAxisTitle: String?
  /// Axis number formats (`yyyy-mm-dd` for a date axis, `0%` for rates); `nil` follows the source cells.
  package var xAxisNumberFormat: String?
  package var yAxisNumberFormat: String?
  /// The lines, in legend order.
  package var series: [Series]
  /// Size in pixels (Excel's default chart is 480 × 288).
  package var width = 720
  package var height = 360

  /// Creates a chart.
  package init(title: String, xAxisTitle: String? = nil, yAxisTitle: String? = nil, series: [Series]) {
    self.title = title
    self.xAxisTitle = xAxisTitle
    self.yAxisTitle = yAxisTitle
    self.series = series
  }
}
