import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconPostgres
@testable import StoreReconReports

/// The findings trend from run history, end to end: three runs on three dates against one database,
/// then the history's per-day totals, the summary's sentence and pictures and the workbook's
/// **Findings trend** sheet all count what each run's findings.csv holds.
@Suite(.serialized, .enabled(if: TestDatabase.available, TestDatabase.skipMessage))
struct FindingsTrendRunTests {
  /// A run that leaves rules out (an input missing) takes none of their earlier findings as resolved.
  @Test func rulesLeftOutResolveNothing() throws {
    let world = try DatabaseRunTests.LoadedWorld()
    let first = try world.run(["--quiet"], date: "2026-11-28", out: world.out("2026-11-28"))
    #expect(first.status == 0 || first.status == 3, "\(first.stderr)")
    let before = DatabaseRunTests.rows(try world.text(world.out("2026-11-28"), "findings.csv"))
    #expect(before.contains { $0.count > 3 && $0[1] == "free_entitlement" && $0[3] == "play" })
    try FileManager.default.removeItem(at: world.dir.appendingPathComponent("exports/play/voided.jsonl"))
    let second = try world.run(
      ["--quiet", "--allow-missing"], date: "2026-11-29", out: world.out("2026-11-29"))
    #expect(second.status == 0 || second.status == 3, "\(second.stderr)")
    let changes = DatabaseRunTests.rows(try world.text(world.out("2026-11-29"), "changes.csv"))
    let header = changes.first ?? []
    let state = header.firstIndex(of: "state") ?? 0
    let kind = header.firstIndex(of: "kind") ?? 2
    let store = header.firstIndex(of: "store") ?? 4
    let resolved = changes.dropFirst().filter { $0.count > store && $0[state] == "resolved" }
    #expect(
      !resolved.contains {
        ["free_entitlement", "orphaned_charge"].contains($0[kind]) && $0[store] == "play"
      },
      "\(resolved)")
  }

  @Test func threeRunsDrawTheTrendEachRunsFindingsHold() throws {
    let world = try DatabaseRunTests.LoadedWorld()
    let dates = ["2026-11-28", "2026-11-29", "2026-11-30"]
    var perRun: [[String: Int]] = []
    for (i, date) in dates.enumerated() {
      if i == 2 {
        // The last run gets one more free entitlement, so the trend moves.
        try world.connect().execute(
          """
          INSERT INTO entitlements VALUES ('ent_trend', 'u_trend', 'com.acme.pro.monthly', 'app_store',
            '1888888888888888', 'active', '2026-11-01T00:00:00Z', '2027-11-01T00:00:00Z', NULL)
          """)
      }
      let run = try world.run(["--quiet"], date: date, out: world.out(date))
      #expect(run.status == 0 || run.status == 3, "\(run.stderr)")
      var kinds: [String: Int] = [:]
      for row in DatabaseRunTests.rows(try world.text(world.out(date), "findings.csv")).dropFirst() {
        kinds[row[1], default: 0] += 1
      }
      perRun.append(kinds)
    }

    // The history's totals per day and kind are the findings files'.
    let store = RunHistoryStore(connection: try world.connect())
    let totals = try store.dayTotals(
      through: try #require(CivilDate.parse(dates[2])), days: FindingsTrend.dayCount)
    for (i, date) in dates.enumerated() {
      var kinds: [String: Int] = [:]
      for t in totals where t.date.description == date { kinds[t.kind, default: 0] += t.findings }
      #expect(kinds == perRun[i], "\(date)")
    }
    // A window that starts after the first run leaves it out.
    let short = try store.dayTotals(through: try #require(CivilDate.parse(dates[2])), days: 2)
    #expect(Set(short.map(\.date.description)) == Set(dates.dropFirst()))

    // summary.txt: the sentence with the first and the last run's totals.
    let last = world.out(dates[2])
    // (wrapped at 78 columns: its words, whatever lines they are on)
    let text = try world.text(last, "summary.txt").split(whereSeparator: { $0 == " " || $0 == "\n" })
      .joined(separator: " ")
    let (before, now) = (perRun[0].values.reduce(0, +), perRun[2].values.reduce(0, +))
    #expect(
      text.contains(
        "3 recorded runs: findings \(Grouped.count(before)) on \(dates[0]), \(Grouped.count(now)) on \(dates[2])"
      ),
      "\(text)")
    #expect(text.contains("money at stake"))
    // summary.html: the findings picture, one polyline per kind seen, and the money picture.
    let html = try world.text(last, "summary.html")
    let kinds = Set(perRun.flatMap(\.keys))
    let picture = try #require(html.range(of: "Findings per recorded run and kind"))
    let svg = html[picture.lowerBound...]
    let end = try #require(svg.range(of: "</svg>"))
    let findingsSVG = svg[..<end.lowerBound]
    #expect(findingsSVG.components(separatedBy: "<polyline").count - 1 == kinds.count)
    #expect(html.contains("Money at stake per recorded run"))

    // reconciliation.xlsx: the Findings trend sheet, one row per run, a column per kind.
    let package = XLSXPackage(last + "/reconciliation.xlsx")
    #expect(try package.sheetNames().contains("Findings trend"))
    let rows = try XLSXPackage.rows(try package.sheet("Findings trend"), strings: try package.sharedStrings())
    #expect(rows.count == 4)
    let header = rows[0]
    for (i, kinds) in perRun.enumerated() {
      for (kind, count) in kinds {
        let column = try #require(header.firstIndex(of: kind), "\(header)")
        #expect(rows[i + 1][column] == String(count), "\(dates[i]) \(kind)")
      }
    }
    var charts: [String] = []
    for n in 1...4 { if let chart = try? package.entry("xl/charts/chart\(n).xml") { charts.append(chart) } }
    #expect(charts.contains { $0.contains("'Findings trend'!$B$2:$B$4") }, "\(charts.count) charts")
  }
}
