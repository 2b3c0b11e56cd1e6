import Foundation
import Testing
import StoreReconTestSupport

/// An oversized amount never crashes the run (issue 32, defect 1): a row beyond the bound is rejected
/// with its reason, a sum that would still overflow stops the run with exit 65 and one line
/// (docs/inputs.md#amounts-beyond-the-bound).
@Suite(.serialized) struct MoneyOverflowRunTests {
  static let salesDay = "exports/apple/reports/S_D_85012345_20261120.txt"
  static let earningsMonth = "exports/play/earnings/PlayApps_202610.csv"

  /// The lines of `path` in `world`, changed by `edit` (header included, line 1 first) and written back.
  static func edit(_ world: RunWorld, _ path: String, _ edit: (inout [String]) -> Void) throws {
    let url = world.directory.appendingPathComponent(path)
    var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    edit(&lines)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
  }

  /// Line `n` (1 is the header) of a Summary Sales report with its tab-separated cells set.
  static func setCells(_ lines: inout [String], line n: Int, _ cells: [Int: String]) {
    var fields = lines[n - 1].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    for (i, value) in cells { fields[i] = value }
    lines[n - 1] = fields.joined(separator: "\t")
  }

  /// The rejects file of the input at `path`, as written.
  static func rejects(_ world: RunWorld, _ path: String) throws -> String {
    let name = path.replacingOccurrences(of: "/", with: "_") + ".csv"
    return try world.file("rejects/\(name)")
  }

  static func expectNoCrash(_ output: Binary.Output) {
    #expect(output.status != 132 && output.status != 134)
    #expect(
      !output.stderr.contains("Fatal error") && !output.stderr.contains("Backtrace"), "\(output.stderr)")
  }

  // Summary Sales columns: 7 Units, 8 Developer Proceeds, 15 Customer Price.

  @Test func unitsOfInt64MaxInASummarySalesDayAreARejectedRow() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try Self.edit(world, Self.salesDay) { Self.setCells(&$0, line: 2, [7: "9223372036854775807"]) }
    let output = try world.run([])
    Self.expectNoCrash(output)
    #expect(output.status == 0, "\(output.stderr)")
    let rejects = try Self.rejects(world, Self.salesDay)
    #expect(
      rejects.contains(",2,Units '9223372036854775807' is too large: beyond the 10^15 one row may hold,"))
  }

  @Test func unitsTimesPriceBeyondTheBoundIsARejectedRow() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try Self.edit(world, Self.salesDay) {
      Self.setCells(&$0, line: 2, [7: "3000000000", 15: "9999999999.99", 8: "1.00"])
    }
    let output = try world.run([])
    Self.expectNoCrash(output)
    #expect(output.status == 0, "\(output.stderr)")
    let rejects = try Self.rejects(world, Self.salesDay)
    #expect(rejects.contains(",2,Units 3000000000 × Customer Price "), "\(rejects)")
    #expect(rejects.contains("is too large: beyond the 10^15 one row may hold (minor units)"))
  }

  @Test func elevenAppStoreLinesAtAnAbsurdPriceAreRejectedRows() throws {
    let world = try RunWorld()
    defer { world.remove() }
    let path = "exports/apple/transactions.jsonl"
    let base = try DuplicateRecordTests.plainAppleLine(world)
    var lines: [String] = []
    for i in 0..<11 {
      var object = base
      object["transactionId"] = "88000000000000\(10 + i)"
      object["originalTransactionId"] = "88000000000000\(10 + i)"
      object["price"] = 9_000_000_000_000_000_000 as Int
      lines.append(try DuplicateRecordTests.line(object))
    }
    let handle = try FileHandle(forWritingTo: world.directory.appendingPathComponent(path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data((lines.joined(separator: "\n") + "\n").utf8))
    try handle.close()
    // Eleven rejects in a small world's export pass the damage limit: the run stops with its one line.
    let damaged = try world.run([])
    Self.expectNoCrash(damaged)
    #expect(damaged.status == 65, "\(damaged.stderr)")
    #expect(
      damaged.stderr.contains("exports/apple/transactions.jsonl is damaged: 12 of"), "\(damaged.stderr)")
    let output = try world.run(["--allow-damaged"])
    Self.expectNoCrash(output)
    #expect(output.status == 0, "\(output.stderr)")
    let rejects = try Self.rejects(world, path)
    let tooLarge = rejects.split(separator: "\n").filter {
      $0.contains("9000000000000000000") && $0.contains("too large")
    }
    #expect(tooLarge.count == 11, "\(rejects)")
  }

  @Test func earningsRowsOfAbsurdAmountsAreRejectedRows() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try Self.edit(world, Self.earningsMonth) { lines in
      for n in 2...4 {
        // The last four cells: buyer amount, conversion rate, merchant currency, merchant amount.
        var fields = lines[n - 1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[fields.count - 4] = "90000000000000000.00"
        fields[fields.count - 1] = "90000000000000000.00"
        lines[n - 1] = fields.joined(separator: ",")
      }
    }
    let output = try world.run([])
    Self.expectNoCrash(output)
    #expect(output.status == 0, "\(output.stderr)")
    let rejects = try Self.rejects(world, Self.earningsMonth)
    #expect(
      rejects.split(separator: "\n").filter { $0.contains("'90000000000000000.00' is too large") }.count == 3)
  }

  /// 9,300 rows just within the bound add up past Int64.max in one tie-out cell: exit 65, one line, no report.
  @Test func aSumBeyondInt64StopsTheRunWithExit65() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try Self.edit(world, Self.salesDay) { lines in
      Self.setCells(&lines, line: 2, [7: "1", 15: "9999999999999.99", 8: "1.00"])
      lines += Array(repeating: lines[1], count: 9_300)
    }
    let output = try world.run([])
    Self.expectNoCrash(output)
    #expect(output.status == 65, "\(output.stderr)")
    let errors = output.stderr.split(separator: "\n").filter { $0.contains("does not fit a 64-bit count") }
    #expect(errors.count == 1, "\(output.stderr)")
    #expect(errors.first?.contains("the tie-out's apple_sales cell 2026-11-20") == true, "\(output.stderr)")
    #expect(!FileManager.default.fileExists(atPath: world.out.appendingPathComponent("tieout.csv").path))
  }

  /// 9,300 cells each within Int64 whose total is not: the summary's and the reports' totals would
  /// overflow, so the run stops with exit 65 before writing them.
  @Test func cellsThatFitWhoseTotalsDoNotStopTheRunWithExit65() throws {
    let world = try RunWorld()
    defer { world.remove() }
    try Self.edit(world, Self.salesDay) { lines in
      Self.setCells(&lines, line: 2, [7: "1", 15: "9999999999999.99", 8: "1.00"])
      let template = lines[1]
      for i in 0..<9_300 {
        var row = [template]
        Self.setCells(&row, line: 1, [2: "com.acme.p\(i)"])
        lines.append(row[0])
      }
    }
    let output = try world.run([])
    Self.expectNoCrash(output)
    #expect(output.status == 65, "\(output.stderr)")
    #expect(
      output.stderr.contains("the sum of the tie-out's totals does not fit a 64-bit count"),
      "\(output.stderr)")
  }
}
