import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// docs/inputs.md#a-money-report-given-twice: one report, however many files hold it.
@Suite struct StoreReportCopiesTests {
  static func row(_ file: Int32, line: Int32, units: Int64 = 1, day: String = "2026-11-10") -> AppleSalesRow {
    var row = TieOutTests.sales(day, units: units, line: line)
    row.origin = Origin(file: file, line: line)
    return row
  }

  @Test func aCopyIsDroppedAndNamed() throws {
    var rows = StoreReportRows()
    rows.appleSales = [
      Self.row(0, line: 2), Self.row(0, line: 3, units: 2), Self.row(1, line: 2),
      Self.row(1, line: 3, units: 2),
    ]
    let copies = try StoreReportCopies.readOnce(&rows).get()
    #expect(copies == [StoreReportCopies.Copy(kind: .appleSales, dropped: 1, kept: 0, rows: 2)])
    #expect(rows.appleSales.map(\.origin.file) == [0, 0])
  }

  @Test func otherDaysAreOtherReports() throws {
    var rows = StoreReportRows()
    rows.appleSales = [Self.row(0, line: 2), Self.row(1, line: 2, day: "2026-11-11")]
    #expect(try StoreReportCopies.readOnce(&rows).get().isEmpty)
    #expect(rows.appleSales.count == 2)
  }

  @Test func theSameDayWithOtherRowsConflicts() {
    var rows = StoreReportRows()
    rows.appleSales = [Self.row(0, line: 2), Self.row(1, line: 2, units: 3)]
    guard case .failure(let error) = StoreReportCopies.readOnce(&rows) else {
      Issue.record("no conflict")
      return
    }
    #expect(
      error.conflict
        == StoreReportCopies.Conflict(kind: .appleSales, first: 0, second: 1, period: "2026-11-10"))
    #expect(rows.appleSales.count == 2)
  }
}
