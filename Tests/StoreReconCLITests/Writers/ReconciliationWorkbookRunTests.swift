import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconWorkbooks
@testable import StoreReconDemo
@testable import StoreReconCLI
@testable import StoreReconRun

/// The run writes `reconciliation.xlsx` beside the CSV reports: same tables, same bytes on a re-run.
@Suite(.serialized) struct ReconciliationWorkbookRunTests {
  @Test func demoRunWritesTheWorkbookBesideTheCSVs() throws {
    let dir = try TempDir()
    var options = DemoOptions()
    options.users = 300
    _ = try DemoWorld.generate(options, into: dir.path("world"))
    func run(_ out: String) throws -> RunResult {
      try ReconciliationRun.execute(
        ReconciliationRun.Request(
          configPath: dir.path("world/storerecon.json"), date: options.asOf, outDirectory: dir.path(out)),
        progress: MemoryProgress())
    }
    let result = try run("one")
    Thread.sleep(forTimeInterval: 1.1)
    _ = try run("two")

    let path = dir.path("one/reconciliation.xlsx")
    #expect(result.files.contains("reconciliation.xlsx"))
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: dir.path("two/reconciliation.xlsx")))))
    // No temporary name left behind.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir.path("one")).filter { $0.hasPrefix(".") }
        .isEmpty)

    // The manifest lists the workbook with its size and checksum.
    let manifest = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: dir.path("one/manifest.json"))))
    let outputs = ((manifest as? [String: Any])?["outputs"] as? [[String: Any]]) ?? []
    let entry = try #require(outputs.first { $0["file"] as? String == "reconciliation.xlsx" })
    #expect(entry["bytes"] as? Int == bytes.count)
    #expect(entry["sha256"] as? String == SHA256Digest.hex(of: Array(bytes)))

    // Each table sheet holds exactly the rows of its CSV.
    let package = XLSXPackage(path)
    func csvRows(_ name: String) throws -> Int {
      try String(contentsOfFile: dir.path("one/\(name)"), encoding: .utf8).split(separator: "\n").count - 1
    }
    #expect(try package.sheet("Revenue").rowCount - 2 == Self.revenueMonths(dir.path("one/revenue.csv")))
    #expect(try package.sheet("Counts").rowCount - 1 == csvRows("counts.csv"))
    #expect(try package.sheet("Grants").rowCount - 1 == csvRows("grants.csv"))
    #expect(try package.sheet("Rejects").rowCount - 1 == result.inputs.map(\.counts.rejected).reduce(0, +))
    for kind in Finding.Kind.allCases {
      let n = result.findings.filter { $0.kind == kind }.count
      #expect(n > 0)
      #expect(try package.sheet(ReconciliationWorkbook.sheetName(kind)).rowCount - 1 == n, "\(kind)")
    }

    // Money cells of the findings sheets: numbers in their currency's format, the code beside them.
    let styles = try package.styles()
    let strings = try package.sharedStrings()
    var seen: Set<String> = []
    for kind in Finding.Kind.allCases {
      let sheet = try package.sheet(ReconciliationWorkbook.sheetName(kind))
      for row in 2...sheet.rowCount {
        guard let code = XLSXPackage.text(sheet.cells["G\(row)"], strings: strings) else { continue }
        let amount = try #require(sheet.cells["H\(row)"])
        let currency = try #require(Currency.named(code))
        #expect(amount.type == nil)
        #expect(
          styles.formatCode(style: amount.style) == XLSXMoney.numberFormat(digits: currency.minorUnits ?? 0))
        seen.insert(code)
      }
    }
    #expect(seen.isSuperset(of: ["JPY", "USD", "KWD"]), "\(seen)")

    let summary = try XLSXPackage.rows(try package.sheet("Summary"), strings: strings)
    #expect(summary.contains(["total", "", "", "", String(result.findings.count)]))
    // The first row is the run's status and its cases with their money at stake, the very values
    // summary.txt and the e-mail subject start with; the reason on the next.
    let status = try #require(result.summary?.runStatus)
    #expect(summary.first == [status.label, status.casesPhrase])
    #expect(summary.dropFirst().first == ["", status.reason])
    // Joined back where summary.txt wraps it at 78 columns.
    let firstLine = TextWrap.firstItem(
      of: try String(contentsOfFile: dir.path("one/summary.txt"), encoding: .utf8))
    #expect(firstLine.hasPrefix(status.label + " — " + status.casesPhrase + " — "))
    #expect(status.label == "ATTENTION", "\(status.reason)")

    try Self.expectPrintSetup(package)
  }

  /// The Revenue sheet's rows (less its header and note line): revenue.csv's months × store × product ×
  /// currency.
  static func revenueMonths(_ path: String) throws -> Int {
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
    return Set(
      lines.map { line in
        let f = line.split(separator: ",", omittingEmptySubsequences: false)
        return [String(f[0].prefix(7)), String(f[1]), String(f[2]), String(f[3])]
      }
    ).count
  }

  /// Print setup on every sheet: landscape, one page wide; every table's header repeats on each page.
  static func expectPrintSetup(_ package: XLSXPackage) throws {
    let sheets = try package.entryNames().filter { $0.hasPrefix("xl/worksheets/sheet") }
    #expect(sheets.count == (try package.sheetNames()).count)
    for name in sheets {
      let xml = try package.entry(name)
      #expect(xml.contains("<pageSetUpPr fitToPage=\"1\"/>"), "\(name)")
      #expect(xml.contains("orientation=\"landscape\"") && xml.contains("fitToHeight=\"0\""), "\(name)")
    }
    let titles = XLSXPackage.matches(
      "<definedName name=\"_xlnm.Print_Titles\"[^>]*>([^<]*)<", in: try package.entry("xl/workbook.xml"))
    #expect(titles.count == (try package.sheetNames()).count - 1, "every sheet but Summary: \(titles)")
    #expect(titles.allSatisfy { $0.last?.hasSuffix("!$1:$1") == true }, "\(titles)")
  }
}
