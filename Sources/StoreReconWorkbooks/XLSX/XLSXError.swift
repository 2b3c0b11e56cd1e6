import StoreReconReports
/// Why a workbook could not be written: the file, what was being done, and libxlsxwriter's reason.
package struct XLSXError: Error, CustomStringConvertible, Sendable, Equatable {
  /// The workbook's final path.
  package var path: String
  /// What was being done: `close`, `sheet 'Revenue' cell B7`, `add sheet 'Summary'`.
  package var operation: String
  /// The reason, in words (libxlsxwriter's own message where it gave one).
  package var reason: String

  /// Creates an error.
  package init(path: String, operation: String, reason: String) {
    self.path = path
    self.operation = operation
    self.reason = reason
  }

  /// One line: `cannot write workbook reports/x.xlsx: sheet 'Revenue' cell B7: <reason>`.
  package var description: String { "cannot write workbook \(path): \(operation): \(reason)" }
}
