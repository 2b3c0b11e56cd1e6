package import StoreReconCore

/// Why a store money report leaves its period incomplete, from what reading it gave: a Summary Sales
/// day or an earnings month with a header and no rows would drop out of the tie-out unseen, and a
/// Financial report cut before its trailer would settle a month from a part of it. Each is named, and
/// the run is INCOMPLETE (docs/tieout.md#a-report-that-shrinks-to-nothing).
package enum StoreReportPeriod {
  /// The sentence for the report `display` of `role` read as `counts` (`complete`: a Financial
  /// report's trailer was there), or `nil` when it holds its period.
  package static func incompleteness(role: String, display: String, counts: InputCounts, complete: Bool)
    -> String?
  {
    let again = "download the report again"
    switch role {
    case "app_store.sales_reports" where counts.read == 0:
      let day = period(of: display, digits: 8).map { "the day \($0)" } ?? "its day"
      return "header only, no rows: \(day) is not tied out; \(again)"
    case "play.earnings" where counts.read == 0:
      let month = period(of: display, digits: 6).map { "the month \($0)" } ?? "its month"
      return "header only, no rows: \(month) is not tied out; \(again)"
    case "app_store.financial_reports" where !complete:
      let rows = counts.read == 1 ? "its 1 row is" : "its \(counts.read) rows are"
      return "ends before its Total_Rows trailer, so it may be cut short: \(rows) left out of settled "
        + "proceeds and payouts; \(again)"
    default:
      return nil
    }
  }

  /// The period a report's file name states: the last run of exactly `digits` digits in its base name
  /// (`S_D_85000000_20261128.txt` → `2026-11-28`, `PlayApps_202611.csv` → `2026-11`).
  static func period(of path: String, digits: Int) -> String? {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    var runs: [String] = []
    var current = ""
    for c in name + "." {
      if c.isASCII && c.isNumber {
        current.append(c)
      } else {
        if current.count == digits { runs.append(current) }
        current = ""
      }
    }
    guard let run = runs.last else { return nil }
    let d = Array(run)
    let month = String(d[0..<4]) + "-" + String(d[4..<6])
    return digits == 8 ? month + "-" + String(d[6..<8]) : month
  }
}
