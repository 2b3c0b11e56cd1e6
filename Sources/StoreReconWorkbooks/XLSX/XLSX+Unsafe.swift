// Safety: the workbook owns its sheets, formats and charts and is freed exactly once (closed, or freed in
// deinit); each of them checks the workbook is still open before every call (precondition, debug and
// release); C strings are passed through withCString for the call and libxlsxwriter copies them.

import CXLSXWriter
import Foundation
import StoreReconPlatform
import StoreReconReports

/// The fence around libxlsxwriter: the only file of the reports that holds libxlsxwriter's pointers
/// and C strings. ``XLSXWorkbook`` and ``XLSXWorksheet`` call these small safe APIs.
///
/// The workbook owns every sheet, format and chart; each of those checks, on every call, that the
/// workbook is still open (never used after `workbook_close` or `lxw_workbook_free`).
enum LXW {
  /// libxlsxwriter's text for `status` (`lxw_strerror`).
  static func message(_ status: lxw_error) -> String {
    guard let text = lxw_strerror(status) else { return "libxlsxwriter error \(status.rawValue)" }
    return String(cString: text)
  }

  /// The C library's text for the current `errno` (`strerror`).
  static func errnoMessage() -> String { Syscall.message(Syscall.lastError) }

  /// The one owner of an `lxw_workbook`: either ``close()`` writes and frees it, or `deinit` frees it
  /// without writing; exactly once.
  final class Workbook {
    private var raw: UnsafeMutablePointer<lxw_workbook>?

    /// A new workbook that ``close()`` writes to `path` (`workbook_new_opt`); `nil` when libxlsxwriter
    /// cannot allocate one.
    init?(path: String, constantMemory: Bool) {
      var options = lxw_workbook_options()
      options.constant_memory = constantMemory ? 1 : 0
      guard let workbook = path.withCString({ workbook_new_opt($0, &options) }) else { return nil }
      raw = workbook
    }

    deinit {
      if let raw { lxw_workbook_free(raw) }
    }

    /// Whether ``close()`` has not run yet.
    var isOpen: Bool { raw != nil }

    /// The open workbook; a call after ``close()`` breaks the contract.
    private var open: UnsafeMutablePointer<lxw_workbook> {
      guard let raw else { preconditionFailure("LXW.Workbook used after close") }
      return raw
    }

    /// Sets the title, author and created date of `docProps/core.xml` (`workbook_set_properties`).
    func setProperties(title: String, author: String, created: time_t) -> lxw_error {
      let workbook = open
      return title.withCString { title in
        author.withCString { author in
          var props = lxw_doc_properties()
          props.title = UnsafeMutablePointer(mutating: title)
          props.author = UnsafeMutablePointer(mutating: author)
          props.created = created
          return workbook_set_properties(workbook, &props)
        }
      }
    }

    /// Whether `name` may name a new sheet (`workbook_validate_sheet_name`).
    func validateSheetName(_ name: String) -> lxw_error {
      let workbook = open
      return name.withCString { workbook_validate_sheet_name(workbook, $0) }
    }

    /// A new worksheet (`workbook_add_worksheet`); `nil` when libxlsxwriter refuses it.
    func addWorksheet(_ name: String) -> Sheet? {
      let workbook = open
      guard let sheet = name.withCString({ workbook_add_worksheet(workbook, $0) }) else { return nil }
      return Sheet(raw: sheet, workbook: self)
    }

    /// A new cell format (`workbook_add_format`), aligned to the top of its row (a row made taller for
    /// wrapped text reads from its top line), bold, wrapped, with `numberFormat` and a solid fill and font
    /// colour (`0xRRGGBB`) as asked; `nil` when libxlsxwriter cannot allocate one.
    func addFormat(
      bold: Bool, wrap: Bool = false, numberFormat: String?,
      colours: (background: UInt32, font: UInt32)? = nil
    ) -> Format? {
      guard let format = workbook_add_format(open) else { return nil }
      format_set_align(format, UInt8(LXW_ALIGN_VERTICAL_TOP.rawValue))
      if bold { format_set_bold(format) }
      if wrap { format_set_text_wrap(format) }
      if let colours {
        format_set_pattern(format, UInt8(LXW_PATTERN_SOLID.rawValue))
        format_set_bg_color(format, lxw_color_t(colours.background))
        format_set_font_color(format, lxw_color_t(colours.font))
      }
      if let numberFormat {
        numberFormat.withCString { format_set_num_format(format, $0) }
      }
      return Format(raw: format)
    }

    /// A new cell format with a solid background (`format_set_bg_color`, `0xRRGGBB`), bold; `nil` when
    /// libxlsxwriter cannot allocate one.
    func addFormat(background: UInt32) -> Format? {
      guard let format = workbook_add_format(open) else { return nil }
      format_set_bold(format)
      format_set_bg_color(format, background)
      return Format(raw: format)
    }

    /// A new chart (`workbook_add_chart`); `nil` when libxlsxwriter cannot create one.
    func addChart(type: lxw_chart_type) -> Chart? {
      guard let chart = workbook_add_chart(open, UInt8(type.rawValue)) else { return nil }
      return Chart(raw: chart, workbook: self)
    }

    /// Writes the file and frees the workbook (`workbook_close`, which frees it whether or not writing
    /// succeeded). Only once.
    func close() -> lxw_error {
      let workbook = open
      raw = nil
      return workbook_close(workbook)
    }
  }

  /// A cell format of an open workbook (the workbook frees it).
  struct Format {
    fileprivate let raw: UnsafeMutablePointer<lxw_format>
  }

  /// A worksheet of an open workbook (the workbook frees it). Rows and columns are checked by the
  /// caller against Excel's limits.
  struct Sheet {
    private let raw: UnsafeMutablePointer<lxw_worksheet>
    private let workbook: Workbook

    fileprivate init(raw: UnsafeMutablePointer<lxw_worksheet>, workbook: Workbook) {
      self.raw = raw
      self.workbook = workbook
    }

    /// The sheet while its workbook is open; a call after close breaks the contract.
    @inline(__always)
    private var open: UnsafeMutablePointer<lxw_worksheet> {
      precondition(workbook.isOpen, "LXW.Sheet used after its workbook was closed")
      return raw
    }

    /// `worksheet_write_string` (`text` holds no NUL).
    @inline(__always)
    func writeString(_ row: lxw_row_t, _ column: lxw_col_t, _ text: String, format: Format?) -> lxw_error {
      let sheet = open
      return text.withCString { worksheet_write_string(sheet, row, column, $0, format?.raw) }
    }

    /// `worksheet_write_url` with the default hyperlink format (`url` holds no NUL).
    @inline(__always)
    func writeURL(_ row: lxw_row_t, _ column: lxw_col_t, _ url: String) -> lxw_error {
      let sheet = open
      return url.withCString { worksheet_write_url(sheet, row, column, $0, nil) }
    }

    /// `worksheet_write_number`.
    @inline(__always)
    func writeNumber(_ row: lxw_row_t, _ column: lxw_col_t, _ value: Double, format: Format?) -> lxw_error {
      worksheet_write_number(open, row, column, value, format?.raw)
    }

    /// `worksheet_write_datetime`.
    @inline(__always)
    func writeDatetime(_ row: lxw_row_t, _ column: lxw_col_t, _ value: lxw_datetime, format: Format?)
      -> lxw_error
    {
      var value = value
      return worksheet_write_datetime(open, row, column, &value, format?.raw)
    }

    /// `worksheet_freeze_panes`.
    func freezePanes(_ row: lxw_row_t, _ column: lxw_col_t) {
      worksheet_freeze_panes(open, row, column)
    }

    /// `worksheet_autofilter`.
    func autofilter(
      _ firstRow: lxw_row_t, _ firstColumn: lxw_col_t, _ lastRow: lxw_row_t, _ lastColumn: lxw_col_t
    )
      -> lxw_error
    {
      worksheet_autofilter(open, firstRow, firstColumn, lastRow, lastColumn)
    }

    /// Print setup: landscape, every column on one page wide (until ``fitToPages(width:height:)``), as
    /// many pages tall as needed (`worksheet_set_landscape`, `worksheet_fit_to_pages`), and `footer` at the foot of every page
    /// (`worksheet_set_footer`: `&A` the sheet, `&P of &N` the page of all pages).
    func setPrintLayout(footer: String) -> lxw_error {
      let sheet = open
      worksheet_set_landscape(sheet)
      worksheet_fit_to_pages(sheet, 1, 0)
      return footer.withCString { worksheet_set_footer(sheet, $0) }
    }

    /// `worksheet_fit_to_pages`: the printed sheet is scaled to `width` pages wide (`height` 0: as many
    /// pages tall as needed).
    func fitToPages(width: UInt16, height: UInt16) {
      worksheet_fit_to_pages(open, width, height)
    }

    /// `worksheet_repeat_columns`: columns `first...last` are printed at the left of every page.
    func repeatColumns(_ first: lxw_col_t, _ last: lxw_col_t) -> lxw_error {
      worksheet_repeat_columns(open, first, last)
    }

    /// `worksheet_set_row` with a height in points and the format of the row's cells that have none.
    func setRowHeight(_ row: lxw_row_t, _ height: Double, format: Format) -> lxw_error {
      worksheet_set_row(open, row, height, format.raw)
    }

    /// `worksheet_print_area`: only rows `firstRow...lastRow`, columns `firstColumn...lastColumn` print.
    func printArea(
      _ firstRow: lxw_row_t, _ firstColumn: lxw_col_t, _ lastRow: lxw_row_t, _ lastColumn: lxw_col_t
    ) -> lxw_error {
      worksheet_print_area(open, firstRow, firstColumn, lastRow, lastColumn)
    }

    /// `worksheet_repeat_rows`: rows `first...last` are printed at the top of every page.
    func repeatRows(_ first: lxw_row_t, _ last: lxw_row_t) -> lxw_error {
      worksheet_repeat_rows(open, first, last)
    }

    /// `worksheet_set_column` for columns `first...last`, without a format.
    func setColumn(_ first: lxw_col_t, _ last: lxw_col_t, width: Double) -> lxw_error {
      worksheet_set_column(open, first, last, width, nil)
    }

    /// `worksheet_conditional_format_range`: cells of the range whose number is at least (`atLeast`) or at
    /// most `value` take `format`.
    func conditionalFormat(
      _ firstRow: lxw_row_t, _ firstColumn: lxw_col_t, _ lastRow: lxw_row_t, _ lastColumn: lxw_col_t,
      atLeast: Bool, _ value: Double, format: Format
    ) -> lxw_error {
      var rule = lxw_conditional_format()
      rule.type = UInt8(LXW_CONDITIONAL_TYPE_CELL.rawValue)
      rule.criteria = UInt8(
        (atLeast
          ? LXW_CONDITIONAL_CRITERIA_GREATER_THAN_OR_EQUAL_TO
          : LXW_CONDITIONAL_CRITERIA_LESS_THAN_OR_EQUAL_TO)
          .rawValue)
      rule.value = value
      rule.format = format.raw
      return worksheet_conditional_format_range(open, firstRow, firstColumn, lastRow, lastColumn, &rule)
    }

    /// `worksheet_insert_chart_opt` with the chart's size scaled by `xScale` × `yScale`.
    func insertChart(_ row: lxw_row_t, _ column: lxw_col_t, _ chart: Chart, xScale: Double, yScale: Double)
      -> lxw_error
    {
      var options = lxw_chart_options()
      options.x_scale = xScale
      options.y_scale = yScale
      return worksheet_insert_chart_opt(open, row, column, chart.open, &options)
    }
  }

  /// A chart of an open workbook (the workbook frees it).
  struct Chart {
    /// Which axis a setting is for.
    enum Axis {
      case x, y
    }

    private let raw: UnsafeMutablePointer<lxw_chart>
    private let workbook: Workbook

    fileprivate init(raw: UnsafeMutablePointer<lxw_chart>, workbook: Workbook) {
      self.raw = raw
      self.workbook = workbook
    }

    /// The chart while its workbook is open; a call after close breaks the contract.
    fileprivate var open: UnsafeMutablePointer<lxw_chart> {
      precondition(workbook.isOpen, "LXW.Chart used after its workbook was closed")
      return raw
    }

    private func axis(_ axis: Axis) -> UnsafeMutablePointer<lxw_chart_axis>? {
      axis == .x ? open.pointee.x_axis : open.pointee.y_axis
    }

    /// `chart_title_set_name`.
    func setTitle(_ title: String) {
      let chart = open
      title.withCString { chart_title_set_name(chart, $0) }
    }

    /// `chart_axis_set_name`.
    func setName(_ name: String, of axis: Axis) {
      let handle = self.axis(axis)
      name.withCString { chart_axis_set_name(handle, $0) }
    }

    /// `chart_axis_set_num_format`.
    func setNumberFormat(_ format: String, of axis: Axis) {
      let handle = self.axis(axis)
      format.withCString { chart_axis_set_num_format(handle, $0) }
    }

    /// `chart_axis_set_min` and `chart_axis_set_max`.
    func setRange(_ min: Double, _ max: Double, of axis: Axis) {
      let handle = self.axis(axis)
      chart_axis_set_min(handle, min)
      chart_axis_set_max(handle, max)
    }

    /// No tick labels and no gridlines on `axis` (`chart_axis_set_label_position` none,
    /// `chart_axis_major_gridlines_set_visible` off).
    func hideLabelsAndGridlines(of axis: Axis) {
      let handle = self.axis(axis)
      chart_axis_set_label_position(handle, UInt8(LXW_CHART_AXIS_LABEL_POSITION_NONE.rawValue))
      chart_axis_major_gridlines_set_visible(handle, 0)
    }

    /// A new series without ranges (`chart_add_series`); `nil` when libxlsxwriter cannot add one.
    func addSeries() -> Series? {
      guard let series = chart_add_series(open, nil, nil) else { return nil }
      return Series(raw: series, workbook: workbook)
    }
  }

  /// A series of a chart of an open workbook (the workbook frees it).
  struct Series {
    private let raw: UnsafeMutablePointer<lxw_chart_series>
    private let workbook: Workbook

    fileprivate init(raw: UnsafeMutablePointer<lxw_chart_series>, workbook: Workbook) {
      self.raw = raw
      self.workbook = workbook
    }

    private var open: UnsafeMutablePointer<lxw_chart_series> {
      precondition(workbook.isOpen, "LXW.Series used after its workbook was closed")
      return raw
    }

    /// `chart_series_set_categories`: the cells of `sheet` the categories come from.
    func setCategories(sheet: String, _ firstRow: Int, _ firstColumn: Int, _ lastRow: Int, _ lastColumn: Int)
    {
      let series = open
      sheet.withCString {
        chart_series_set_categories(
          series, $0, UInt32(firstRow), UInt16(firstColumn), UInt32(lastRow), UInt16(lastColumn))
      }
    }

    /// `chart_series_set_values`: the cells of `sheet` the values come from.
    func setValues(sheet: String, _ firstRow: Int, _ firstColumn: Int, _ lastRow: Int, _ lastColumn: Int) {
      let series = open
      sheet.withCString {
        chart_series_set_values(
          series, $0, UInt32(firstRow), UInt16(firstColumn), UInt32(lastRow), UInt16(lastColumn))
      }
    }

    /// A solid line `width` points wide, dashed or not, in `colour` (`0xRRGGBB`), with `marker` points
    /// (`chart_series_set_line`, `chart_series_set_marker_type`).
    func setLine(width: Float, colour: UInt32, dashed: Bool, marker: lxw_chart_marker_type) {
      let series = open
      var line = lxw_chart_line()
      line.width = width
      line.color = colour
      if dashed { line.dash_type = UInt8(LXW_CHART_LINE_DASH_DASH.rawValue) }
      chart_series_set_line(series, &line)
      chart_series_set_marker_type(series, UInt8(marker.rawValue))
      if marker != LXW_CHART_MARKER_NONE {
        var fill = lxw_chart_fill()
        fill.color = colour
        chart_series_set_marker_fill(series, &fill)
        chart_series_set_marker_line(series, &line)
        chart_series_set_marker_size(series, 7)
      }
    }

    /// `chart_series_set_name`.
    func setName(_ name: String) {
      let series = open
      name.withCString { chart_series_set_name(series, $0) }
    }
  }
}
