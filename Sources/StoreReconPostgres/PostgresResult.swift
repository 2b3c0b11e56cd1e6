/// The result of one statement: owns its ``LibPQ/Result`` (whose `PGresult` is cleared exactly once).
///
/// Values are read as text (the statements run in text format); `nil` is SQL NULL.
package final class PostgresResult {
  private let raw: LibPQ.Result

  init(owning raw: LibPQ.Result) { self.raw = raw }

  /// Rows returned.
  package var rowCount: Int { raw.rowCount }

  /// Columns returned.
  package var columnCount: Int { raw.columnCount }

  /// The name of column `index`.
  package func columnName(_ index: Int) -> String {
    raw.columnName(index) ?? ""
  }

  /// The text of row `row`, column `column`; `nil` for NULL.
  package func value(_ row: Int, _ column: Int) -> String? {
    guard row >= 0 && row < rowCount && column >= 0 && column < columnCount else { return nil }
    if raw.isNull(row, column) { return nil }
    return raw.value(row, column)
  }

  /// Rows a command affected (`INSERT`, `DELETE`, `COPY`), or `nil` when the command reports none.
  package var affectedRows: Int? {
    guard let text = raw.affectedRowsText else { return nil }
    return Int(text)
  }
}
