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
    /// A reference line (a thin dashed grey line without markers, such as zero), not data.
    package var reference = false

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
    /// Intervals on a scatter chart, which Excel and LibreOffice both draw: each series is one
    /// interval's points — x from `categories` (low, estimate, high), y from `values` (the interval's
    /// row) — joined by a straight line with a circle at each point; y axis labels and gridlines are
    /// off (the legend names the rows).
    case intervals
  }

  /// Chart title.
  package var title: String
  /// Lines (the default) or intervals.
  package var style = Style.lines
  /// Axis titles; `nil` leaves the axis untitled.
  package var xAxisTitle: String?
  package var yAxisTitle: String?
  /// Axis number formats (`yyyy-mm-dd` for a date axis, `0%` for rates); `nil` follows the source cells.
  package var xAxisNumberFormat: String?
  package var yAxisNumberFormat: String?
  /// The y axis's fixed range (`nil`: automatic).
  package var yAxisRange: ClosedRange<Double>?
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
