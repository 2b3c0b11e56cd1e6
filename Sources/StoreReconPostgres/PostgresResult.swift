internal import CLibPQ

/// The result of one statement: owns its `PGresult` and clears it exactly once.
///
/// Values are read as text (the statements run in text format); `nil` is SQL NULL.
package final class PostgresResult {
  private let raw: OpaquePointer

  init(owning raw: OpaquePointer) { self.raw = raw }

  deinit { PQclear(raw) }

  /// Rows returned.
  package var rowCount: Int { Int(PQntuples(raw)) }

  /// Columns returned.
  package var columnCount: Int { Int(PQnfields(raw)) }

  /// The name of column `index`.
  package func columnName(_ index: Int) -> String {
    PQfname(raw, Int32(index)).map { String(cString: $0) } ?? ""
  }

  /// The text of row `row`, column `column`; `nil` for NULL.
  package func value(_ row: Int, _ column: Int) -> String? {
    guard row >= 0 && row < rowCount && column >= 0 && column < columnCount else { return nil }
    if PQgetisnull(raw, Int32(row), Int32(column)) != 0 { return nil }
    return PQgetvalue(raw, Int32(row), Int32(column)).map { String(cString: $0) }
  }

  /// Rows a command affected (`INSERT`, `DELETE`, `COPY`), or `nil` when the command reports none.
  package var affectedRows: Int? {
    guard let text = PQcmdTuples(raw) else { return nil }
    return Int(String(cString: text))
  }
}
