import CXLSXWriter
import Foundation
import StoreReconPlatform
import StoreReconReports

/// The one owner of a libxlsxwriter workbook: sheets, cached formats and charts live inside it, and
/// `close()` writes the file exactly once.
///
/// Nothing is written to disk before ``close()``. A workbook dropped without `close()` (after an error)
/// is freed without writing anything. Every libxlsxwriter failure becomes an ``XLSXError``.
package final class XLSXWorkbook {
  /// The path libxlsxwriter writes to on ``close()``.
  package let path: String
  /// Name used in error messages (the final path when writing through ``write(to:properties:constantMemory:build:)``).
  let displayPath: String
  /// In constant-memory mode each worksheet keeps one row in memory: rows must be written in order,
  /// strings are written inline (no shared-string table).
  package let constantMemory: Bool
  private let handle: LXW.Workbook
  private var formats: [XLSXStyle: LXW.Format] = [:]
  /// Worksheet names in the order they were added.
  package private(set) var sheetNames: [String] = []

  /// Every page's footer: the sheet's name on the left, `3 of 12` (page of the sheet's pages) on the right.
  package static let footer = "&L&A&R&P of &N"

  /// Starts an empty workbook that ``close()`` will write to `path`.
  ///
  /// `properties.created` is written as both the created and modified date of `docProps/core.xml`;
  /// libxlsxwriter stamps every zip entry 1980-01-01 00:00, so no clock reading reaches the file.
  package convenience init(path: String, properties: XLSXProperties, constantMemory: Bool = false)
    throws(XLSXError)
  {
    try self.init(path: path, displayPath: path, properties: properties, constantMemory: constantMemory)
  }

  init(path: String, displayPath: String, properties: XLSXProperties, constantMemory: Bool) throws(XLSXError)
  {
    self.path = path
    self.displayPath = displayPath
    self.constantMemory = constantMemory
    guard let workbook = LXW.Workbook(path: path, constantMemory: constantMemory) else {
      throw XLSXError(
        path: displayPath, operation: "create", reason: "libxlsxwriter could not allocate a workbook")
    }
    handle = workbook
    let created = time_t(properties.created.startUTC.ms / 1000)
    let status = workbook.setProperties(title: properties.title, author: properties.author, created: created)
    try check(status, "set document properties")
  }

  /// Whether ``close()`` has run.
  package var isClosed: Bool { !handle.isOpen }

  /// Adds a worksheet after the existing ones. Names are at most 31 characters, unique (ignoring case),
  /// without `[ ] : * ? / \`, and not starting or ending with an apostrophe.
  package func addWorksheet(_ name: String) throws(XLSXError) -> XLSXWorksheet {
    let workbook = try open("add sheet '\(name)'")
    try check(workbook.validateSheetName(name), "add sheet '\(name)'")
    guard let sheet = workbook.addWorksheet(name) else {
      throw XLSXError(
        path: displayPath, operation: "add sheet '\(name)'", reason: "libxlsxwriter refused the sheet")
    }
    sheetNames.append(name)
    // Every sheet prints landscape, one page wide unless a table asks for more (a frozen header repeats
    // on every page), with the sheet's name and its page numbers in the footer.
    try check(sheet.setPrintLayout(footer: Self.footer), "sheet '\(name)' print setup")
    return XLSXWorksheet(name: name, workbook: self, handle: sheet)
  }

  /// Writes the file and frees the workbook. Runs libxlsxwriter's `workbook_close` exactly once; a second
  /// call throws.
  package func close() throws(XLSXError) {
    let workbook = try open("close")
    formats = [:]
    // workbook_close frees the workbook whether or not writing succeeded.
    try check(workbook.close(), "close")
  }

  /// Builds a workbook under a temporary name beside `path`, closes it, then renames it into place, so a
  /// half-written workbook never exists under its final name. Creates the folder if needed.
  package static func write(
    to path: String, properties: XLSXProperties, constantMemory: Bool = false,
    build: (XLSXWorkbook) throws(XLSXError) -> Void
  ) throws(XLSXError) {
    let folder = DurableFile.folder(of: path)
    do {
      try DurableFile.createFolders(folder)
    } catch {
      throw XLSXError(path: path, operation: "create folder \(folder)", reason: error.reason)
    }
    let temporary = DurableFile.temporaryPath(for: path)
    do {
      let workbook = try XLSXWorkbook(
        path: temporary, displayPath: path, properties: properties, constantMemory: constantMemory)
      try build(workbook)
      try workbook.close()
    } catch {
      DurableFile.remove(temporary)
      throw error
    }
    do {
      try DurableFile.publish(temporary, to: path)
    } catch {
      throw XLSXError(path: path, operation: "rename \(temporary)", reason: error.reason)
    }
  }

  // MARK: - Internals shared with worksheets

  /// The open workbook, or an error naming `operation` once it is closed.
  func open(_ operation: @autoclosure () -> String) throws(XLSXError) -> LXW.Workbook {
    guard handle.isOpen else {
      throw XLSXError(path: displayPath, operation: operation(), reason: "the workbook is already closed")
    }
    return handle
  }

  /// The cached format for `style`, created on first use.
  func format(_ style: XLSXStyle) throws(XLSXError) -> LXW.Format {
    if let cached = formats[style] { return cached }
    let workbook = try open("add format")
    guard
      let format = workbook.addFormat(
        bold: style.isBold, wrap: style == .wrapped, numberFormat: style.numberFormat, colours: style.colours)
    else {
      throw XLSXError(
        path: displayPath, operation: "add format", reason: "libxlsxwriter could not allocate a format")
    }
    formats[style] = format
    return format
  }

  /// A new chart object owned by the workbook.
  func addChart(type: lxw_chart_type, operation: String) throws(XLSXError) -> LXW.Chart {
    let workbook = try open(operation)
    guard let chart = workbook.addChart(type: type) else {
      throw XLSXError(
        path: displayPath, operation: operation, reason: "libxlsxwriter could not create the chart")
    }
    return chart
  }

  /// Throws an ``XLSXError`` with libxlsxwriter's message unless `status` is `LXW_NO_ERROR`.
  func check(_ status: lxw_error, _ operation: @autoclosure () -> String) throws(XLSXError) {
    guard status != LXW_NO_ERROR else { return }
    throw XLSXError(path: displayPath, operation: operation(), reason: XLSXWorkbook.message(status))
  }

  static func message(_ status: lxw_error) -> String { LXW.message(status) }
}
