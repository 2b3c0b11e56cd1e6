/// The stores' money reports read once per report (docs/inputs.md#a-money-report-given-twice).
///
/// A report's identity is what it covers: a Summary Sales report its days, an earnings report its
/// month, a Financial report its fiscal period per country of sale and payout currency (one file per
/// region, so regions never overlap). Two files that cover a common period are the same report: with
/// the same rows (file names, line numbers and compression aside: a copy, the CSV and Google's zip of
/// one month) the later file is a duplicate and counts nothing; with other rows they conflict and the
/// run stops, since either could be the right one.
package enum StoreReportCopies {
  /// A file left out because an earlier file holds the same report.
  package struct Copy: Sendable, Equatable {
    package var kind: StoreReportKind
    /// The file left out (its index in the run's inputs) and the one counted.
    package var dropped: Int32
    package var kept: Int32
    /// The rows left out.
    package var rows: Int
  }

  /// Two files that cover one period with different rows.
  package struct Conflict: Sendable, Equatable {
    package var kind: StoreReportKind
    package var first: Int32
    package var second: Int32
    /// The period both cover (`2026-11-20`, `2026-10`, `2026-09-27…2026-10-31 US USD`).
    package var period: String
  }

  /// Removes the rows of files that repeat an earlier file's report; returns the copies left out, or
  /// the first conflict (rows then unchanged).
  package static func readOnce(_ rows: inout StoreReportRows) -> Result<[Copy], ConflictError> {
    var copies: [Copy] = []
    do {
      copies += try dropped(
        &rows.appleSales, .appleSales, period: { $0.day.description }, same: same)
      copies += try dropped(
        &rows.playEarnings, .playEarnings, period: { String($0.month.description.prefix(7)) }, same: same)
      copies += try dropped(
        &rows.appleFinancial, .appleFinancial,
        period: { "\($0.startDay)…\($0.endDay) \($0.country) \($0.partnerShareCurrency.code)" }, same: same)
    } catch {
      return .failure(error)
    }
    return .success(copies)
  }

  /// The conflict, as an error.
  package struct ConflictError: Error, Sendable, Equatable {
    package var conflict: Conflict
  }

  static func same(_ a: AppleSalesRow, _ b: AppleSalesRow) -> Bool {
    var b = b
    b.origin = a.origin
    return a == b
  }

  static func same(_ a: PlayEarningsRow, _ b: PlayEarningsRow) -> Bool {
    var b = b
    b.origin = a.origin
    return a == b
  }

  static func same(_ a: AppleFinancialRow, _ b: AppleFinancialRow) -> Bool {
    var b = b
    b.origin = a.origin
    return a == b
  }

  /// One kind's rows without the files that repeat an earlier one; throws on a conflict.
  static func dropped<Row>(
    _ rows: inout [Row], _ kind: StoreReportKind, period: (Row) -> String, same: (Row, Row) -> Bool
  ) throws(ConflictError) -> [Copy] where Row: StoreReportRow {
    var files: [Int32: [Int]] = [:]
    var order: [Int32] = []
    for (i, row) in rows.enumerated() {
      if files[row.origin.file] == nil { order.append(row.origin.file) }
      files[row.origin.file, default: []].append(i)
    }
    guard order.count > 1 else { return [] }
    order.sort()
    var owner: [String: Int32] = [:]
    var copies: [Copy] = []
    var drop: Set<Int32> = []
    for file in order {
      let mine = files[file] ?? []
      let periods = Set(mine.map { period(rows[$0]) })
      let earlier = Set(periods.compactMap { owner[$0] })
      guard let first = earlier.min() else {
        for p in periods { owner[p] = file }
        continue
      }
      let theirs = files[first] ?? []
      let identical =
        earlier.count == 1 && theirs.count == mine.count
        && zip(theirs, mine).allSatisfy { same(rows[$0.0], rows[$0.1]) }
      guard identical else {
        let common = periods.filter { owner[$0] == first }.min() ?? ""
        throw ConflictError(conflict: Conflict(kind: kind, first: first, second: file, period: common))
      }
      drop.insert(file)
      copies.append(Copy(kind: kind, dropped: file, kept: first, rows: mine.count))
    }
    if !drop.isEmpty { rows.removeAll { drop.contains($0.origin.file) } }
    return copies
  }
}

/// A report row read from a file.
protocol StoreReportRow {
  var origin: Origin { get }
}

extension AppleSalesRow: StoreReportRow {}
extension PlayEarningsRow: StoreReportRow {}
extension AppleFinancialRow: StoreReportRow {}
