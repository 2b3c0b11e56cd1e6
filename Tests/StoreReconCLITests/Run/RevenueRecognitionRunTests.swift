import Foundation
import Testing
import StoreReconTestSupport

/// Issue 34's revenue recognition as a user runs it on the demo world: every row's identity holds,
/// what is billed is revenue.csv's gross, and the summary's deferred line is the report month's closing
/// balances (docs/reports.md#revenue_recognitioncsv).
@Suite struct RevenueRecognitionRunTests {
  static func rows(_ text: String) -> [[String]] {
    text.split(separator: "\n").dropFirst().map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
  }

  @Test func theDemoWorldsRecognitionBalancesAndTracesToRevenue() throws {
    let world = try RunWorld(users: 600)
    defer { world.remove() }
    let run = try world.run([])
    #expect(run.status == 0, "\(run.stderr)")
    let text = try world.file("revenue_recognition.csv")
    #expect(
      text.hasPrefix(
        "store,currency,product_id,month,billed_minor,refunded_minor,recognized_minor,deferred_opening_minor,deferred_closing_minor\n"
      ))
    let rows = Self.rows(text)
    #expect(rows.count > 10)
    var billed: [String: Int64] = [:]
    var deferred: [String: Int64] = [:]
    var previous: (key: String, closing: Int64)?
    for r in rows {
      let v = r[4...8].map { Int64($0) ?? Int64.min }
      #expect(v[3] + v[0] - v[1] - v[2] == v[4], "\(r)")
      let key = r[0...2].joined(separator: ",")
      // A product's months follow each other: each opens with the closing before it.
      if let previous, previous.key == key { #expect(v[3] == previous.closing, "\(r)") }
      if previous?.key != key { #expect(v[3] == 0, "\(r)") }
      previous = (key, v[4])
      billed[r[0] + " " + r[1], default: 0] += v[0]
      if r[3] == "2026-11" { deferred[r[1], default: 0] += v[4] }
    }
    var gross: [String: Int64] = [:]
    for r in Self.rows(try world.file("revenue.csv")) {
      gross[r[1] + " " + r[3], default: 0] += Int64(r[5]) ?? 0
    }
    #expect(billed == gross)
    #expect(deferred.values.contains { $0 > 0 })
    let summary = try world.file("summary.txt").replacingOccurrences(of: "\n", with: " ")
    let compact = summary.split(separator: " ").joined(separator: " ")
    #expect(compact.contains("Deferred revenue at T (revenue_recognition.csv):"), "\(compact)")
    // Re-runs give the same bytes.
    _ = try world.run([])
    #expect(try world.file("revenue_recognition.csv") == text)
  }
}

/// charges.csv reproduces the money totals of revenue.csv and revenue_recognition.csv by the filters
/// docs/reports.md#chargescsv states.
@Suite struct ChargesTraceTests {
  @Test func everyTotalIsAFilterOnChargesCsv() throws {
    let world = try RunWorld(users: 600)
    defer { world.remove() }
    let run = try world.run([])
    #expect(run.status == 0, "\(run.stderr)")
    let charges = RevenueRecognitionRunTests.rows(try world.file("charges.csv"))
    #expect(charges.count > 100)
    // revenue.csv per day, store, product and currency.
    var expected: [String: [Int64]] = [:]
    for r in RevenueRecognitionRunTests.rows(try world.file("revenue.csv")) {
      let key = [r[0], r[1], r[2], r[3]].joined(separator: " ")
      expected[key] = [
        Int64(r[4]) ?? -1, Int64(r[5]) ?? -1, Int64(r[7]) ?? -1, Int64(r[8]) ?? -1, Int64(r[9]) ?? -1,
      ]
    }
    var traced: [String: [Int64]] = [:]
    // Recognition: billed and refunded per store, currency, product and month.
    var billed: [String: [Int64]] = [:]
    for c in charges {
      let amount = Int64(c[11]) ?? -1
      if c[14] == "yes" {
        let key = [c[7], c[1], c[4], c[5]].joined(separator: " ")
        var v = traced[key] ?? [0, 0, 0, 0, 0]
        if c[0] == "charge" {
          v[0] += 1
          v[1] += amount
        } else {
          v[2] += amount
          v[3] += 1
        }
        v[4] += Int64(c[12]) ?? 0
        traced[key] = v
      }
      if c[15] == "yes" {
        let key = [c[1], c[5], c[4], c[8]].joined(separator: " ")
        var v = billed[key] ?? [0, 0]
        if c[0] == "charge" { v[0] += amount } else { v[1] += amount }
        billed[key] = v
      }
    }
    #expect(traced == expected)
    var recognition: [String: [Int64]] = [:]
    for r in RevenueRecognitionRunTests.rows(try world.file("revenue_recognition.csv"))
    where r[4] != "0" || r[5] != "0" {
      recognition[r[0...3].joined(separator: " ")] = [Int64(r[4]) ?? -1, Int64(r[5]) ?? -1]
    }
    #expect(billed == recognition)
    // The import file: one row per charge.
    let imports = RevenueRecognitionRunTests.rows(try world.file("revenue_recognition_import.csv"))
    #expect(imports.count == charges.filter { $0[0] == "charge" }.count)
    #expect(Set(imports.map { $0[0] }) == ["App Store", "Google Play"])
  }
}
