/// Why a workbook could not be written: the file, what was being done, and libxlsxwriter's reason.
public struct XLSXError: Error, CustomStringConvertible, Sendable, Equatable {
  /// The workbook's final path.
  public var path: String
  /// What was being done: `close`, `sheet 'Revenue' cell B7`, `add sheet 'Summary'`.
  public var operation: String
  /// The reason, in words (libxlsxwriter's own message where it gave one).
  public var reason: String

  /// Creates an error.
  public init(path: String, operation: String, reason: String) {
    self.path = path
    self.operation = operation
    self.reason = reason
  }

  /// One line: `cannot write workbook reports/x.xlsx: sheet 'Revenue' cell B7: <reason>`.
  public var description: String { "cannot write workbook \(path): \(operation): \(reason)" }
}
