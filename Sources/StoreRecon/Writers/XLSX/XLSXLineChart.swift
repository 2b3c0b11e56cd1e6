/// A native Excel line chart whose series read their values from worksheet ranges.
public struct XLSXLineChart: Sendable, Equatable {
  /// One line: its legend name, the x-axis categories and the y values.
  public struct Series: Sendable, Equatable {
    /// Legend name.
    public var name: String
    /// Categories (x axis): dates or labels.
    public var categories: XLSXRange
    /// Values (y axis): numbers.
    public var values: XLSXRange

    /// Creates a series.
    public init(name: String, categories: XLSXRange, values: XLSXRange) {
      self.name = name
      self.categories = categories
      self.values = values
    }
  }

  /// Chart title.
  public var title: String
  /// Axis titles; `nil` leaves the axis untitled.
  public var xAxisTitle: String?
  public var yAxisTitle: String?
  /// Axis number formats (`yyyy-mm-dd` for a date axis, `0%` for rates); `nil` follows the source cells.
  public var xAxisNumberFormat: String?
  public var yAxisNumberFormat: String?
  /// The lines, in legend order.
  public var series: [Series]
  /// Size in pixels (Excel's default chart is 480 × 288).
  public var width = 720
  public var height = 360

  /// Creates a chart.
  public init(title: String, xAxisTitle: String? = nil, yAxisTitle: String? = nil, series: [Series]) {
    self.title = title
    self.xAxisTitle = xAxisTitle
    self.yAxisTitle = yAxisTitle
    self.series = series
  }
}
