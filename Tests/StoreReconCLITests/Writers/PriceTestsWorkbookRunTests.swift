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

/// The run writes `price-tests.xlsx` when experiments are configured: the demo's experiment on its sheet,
/// the same table as `experiment_arms.csv`, listed in the manifest, byte-identical on a re-run; none
/// without experiments; exit 74 when it cannot be written.
@Suite(.serialized) struct PriceTestsWorkbookRunTests {
  @Test func demoRunWritesThePriceTestsWorkbook() throws {
    let dir = try TempDir()
    var options = DemoOptions()
    options.users = 1200
    _ = try DemoWorld.generate(options, into: dir.path("world"))
    func run(_ config: String, _ out: String) throws -> RunResult {
      try ReconciliationRun.execute(
        ReconciliationRun.Request(
          configPath: dir.path(config), date: options.asOf, outDirectory: dir.path(out)),
        progress: MemoryProgress())
    }
    let result = try run("world/storerecon.json", "one")
    Thread.sleep(forTimeInterval: 1.1)
    _ = try run("world/storerecon.json", "two")

    let path = dir.path("one/price-tests.xlsx")
    #expect(result.files.contains("price-tests.xlsx"))
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: dir.path("two/price-tests.xlsx")))))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir.path("one")).filter { $0.hasPrefix(".") }
        .isEmpty)
    let manifest = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: dir.path("one/manifest.json"))))
    let outputs = ((manifest as? [String: Any])?["outputs"] as? [[String: Any]]) ?? []
    let entry = try #require(outputs.first { $0["file"] as? String == "price-tests.xlsx" })
    #expect(entry["bytes"] as? Int == bytes.count)
    #expect(entry["sha256"] as? String == SHA256Digest.hex(of: Array(bytes)))

    // One sheet, named after the experiment, whose table holds experiment_arms.csv's rows in its order.
    let readout = try #require(result.experiments.first)
    let package = XLSXPackage(path)
    #expect(try package.sheetNames() == ["paywall-price-2026-09"])
    let sheet = try package.sheet("paywall-price-2026-09")
    let strings = try package.sharedStrings()
    let styles = try package.styles()
    let csv = try String(contentsOfFile: dir.path("one/experiment_arms.csv"), encoding: .utf8)
      .split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    #expect(csv.count == readout.arms.reduce(0) { $0 + 1 + $1.currencies.count })
    #expect(sheet.autofilter == "A1:Z\(csv.count + 1)")
    var seen: Set<String> = []
    for (i, fields) in csv.enumerated() {
      let row = i + 2
      func text(_ column: String) -> String? {
        XLSXPackage.text(sheet.cells["\(column)\(row)"], strings: strings)
      }
      #expect(
        text("A") == String(fields[0]) && text("B") == String(fields[1]) && text("C") == String(fields[2]))
      let code = String(fields[3])
      #expect(text("R") == code)
      #expect(sheet.cells["I\(row)"]?.value == String(fields[4]), "assigned")
      let currency = try #require(Currency.named(code))
      let digits = currency.minorUnits ?? 0
      // gross, refunds, proceeds, revenue per assigned user: the CSV's minor units as major-unit numbers.
      for (column, field) in [("S", 13), ("T", 14), ("U", 15), ("V", 16), ("W", 17), ("X", 18)] {
        let cell = try #require(sheet.cells["\(column)\(row)"], "\(column)\(row)")
        #expect(cell.type == nil)
        #expect(
          styles.formatCode(style: cell.style) == XLSXMoney.numberFormat(digits: digits), "\(column)\(row)")
        let minor = try #require(Int64(String(fields[field])))
        #expect(cell.value.flatMap(Double.init) == XLSXMoney.cellValue(minor: minor, digits: digits))
      }
      #expect(styles.formatCode(style: sheet.cells["M\(row)"]?.style ?? 0) == "0.00%")
      seen.insert(code)
    }
    #expect(seen.isSuperset(of: ["JPY", "USD", "KWD"]), "\(seen)")
    let words = (1...60).compactMap { XLSXPackage.text(sheet.cells["A\($0)"], strings: strings) }
    #expect(
      words.contains { $0.hasPrefix("Sample ratio: assigned \(readout.arms[0].reporting.assigned) / ") })
    #expect(
      words.contains { $0.hasPrefix("control: ") && $0.contains("of credited chains have lived a full") })
    #expect(words.contains { $0.hasPrefix("high: ") && $0.contains("; against control +") })
    let chart = try #require(try XLSXPackage.chart(package, containing: "Cumulative revenue per assigned"))
    #expect(XLSXPackage.matches("<c:ser>", in: chart).count == readout.arms.count)

    // Without experiments: no workbook and no experiment tables.
    let config = try String(contentsOfFile: dir.path("world/storerecon.json"), encoding: .utf8)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(config.utf8)) as? [String: Any])
    var plain = json
    for key in ["experiments", "reportingCurrency", "fxRates", "fees"] { plain[key] = nil }
    try Data(JSONSerialization.data(withJSONObject: plain)).write(
      to: URL(fileURLWithPath: dir.path("world/plain.json")))
    let withoutExperiments = try run("world/plain.json", "plain")
    #expect(withoutExperiments.experiments.isEmpty)
    #expect(!withoutExperiments.files.contains("price-tests.xlsx"))
    #expect(!FileManager.default.fileExists(atPath: dir.path("plain/price-tests.xlsx")))
    #expect(FileManager.default.fileExists(atPath: dir.path("plain/reconciliation.xlsx")))
  }
}
