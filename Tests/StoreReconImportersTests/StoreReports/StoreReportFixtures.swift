import Foundation
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters

/// What one store-report importer read from one file.
struct ReportRead {
  var rows = StoreReportRows()
  var rejects: [Reject] = []
  var counts = InputCounts()

  /// The rejects as `line: reason`, for exact comparisons.
  var reasons: [String] { rejects.map { "\($0.line): \($0.reason)" } }
}

/// The four importers behind one signature, for the tests.
enum ReportFormat {
  case sales, subscriber, financial, earnings, financialSummary, stripeBalance

  func read(_ path: String, name: String) throws(InputError) -> ReportRead {
    let sink = RejectList()
    var result = ReportRead()
    switch self {
    case .sales:
      result.counts = try AppleSalesReportImporter().read(
        path: path, displayName: name, fileIndex: 4, rejects: sink, into: &result.rows)
    case .subscriber:
      result.counts = try AppleSubscriberReportImporter().read(
        path: path, displayName: name, fileIndex: 4, rejects: sink, into: &result.rows)
    case .financial:
      result.counts = try AppleFinancialReportImporter().read(
        path: path, displayName: name, fileIndex: 4, rejects: sink, into: &result.rows)
    case .earnings:
      result.counts = try PlayEarningsReportImporter().read(
        path: path, displayName: name, fileIndex: 4, rejects: sink, into: &result.rows)
    case .financialSummary:
      result.counts = try AppleFinancialSummaryImporter().read(
        path: path, displayName: name, fileIndex: 4, rejects: sink, into: &result.rows)
    case .stripeBalance:
      result.counts = try StripeBalanceReportImporter().read(
        path: path, displayName: name, fileIndex: 4, rejects: sink, into: &result.rows)
    }
    result.rejects = sink.rejects
    return result
  }

  /// Writes `text` to `name` in a new temporary folder (kept alive by `dir`) and reads it.
  func read(text: String, name: String, in dir: TempDir) throws -> ReportRead {
    try read(try dir.write(name, text), name: name)
  }
}

/// `text` as UTF-16 little-endian with its byte-order mark.
func utf16LE(_ text: String) -> [UInt8] {
  var bytes: [UInt8] = [0xFF, 0xFE]
  for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
  return bytes
}

/// `text` as UTF-8 with its byte-order mark.
func utf8BOM(_ text: String) -> [UInt8] { [0xEF, 0xBB, 0xBF] + Array(text.utf8) }

/// A tab-separated line.
func tsv(_ cells: [String]) -> String { cells.joined(separator: "\t") }

func date(_ year: Int, _ month: Int, _ day: Int) -> CivilDate {
  CivilDate(year: year, month: month, day: day)
}
