import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconWorkbooks

/// `price-tests.xlsx` from hand-built readouts: sheet names, the arm table's cells and formats, the
/// readout in words, the chart and its data, byte-identical re-writes.
@Suite(.serialized) struct PriceTestsWorkbookTests {
  static let date = CivilDate(year: 2026, month: 11, day: 29)
  static let start = CivilDate(year: 2026, month: 9, day: 1)

  static func currency(_ code: String) throws -> Currency { try #require(Currency.named(code)) }

  static func row(
    _ scope: ArmRow.Scope, _ currency: Currency, assigned: Int, paid: Int, gross: Int64, proceeds: Int64,
    rpa: Int64, interval: (Double, Double), lineages: Int = 0, mature: Int = 0
  ) -> ArmRow {
    var r = ArmRow(scope: scope, currency: currency)
    r.assigned = assigned
    r.trials = paid / 2
    r.trialConversions = paid / 4
    r.paidConversions = paid
    r.conversionRate = Double(paid) / Double(assigned)
    r.conversionInterval = WilsonInterval.interval(successes: paid, trials: assigned)
    r.renewals = paid * 2
    r.refunds = 1
    r.refundsMinor = gross / 100
    r.grossMinor = gross
    r.proceedsMinor = proceeds
    r.revenuePerAssignedMinor = rpa
    r.revenuePerAssignedInterval = Interval(low: interval.0, high: interval.1)
    r.subscriptionLineages = lineages
    r.matureLineages = mature
    return r
  }

  /// Cumulative revenue per assigned user over five days; nobody assigned before `firstDay`.
  static func series(firstDay: Int, perDay: Int64) -> [DailyPoint] {
    (0..<5).map { d in
      let assigned = d < firstDay ? 0 : 100 * (d - firstDay + 1)
      return DailyPoint(
        day: CivilDate(daysSinceEpoch: start.daysSinceEpoch + Int64(d)), dayIndex: d, assigned: assigned,
        cumulativeProceedsMinor: perDay * Int64(d),
        revenuePerAssignedMinor: d < firstDay ? nil : perDay * Int64(d + 1))
    }
  }

  /// An experiment with arms control (920 assigned) and high (915), paid in USD, JPY and KWD, reported in
  /// USD; `high` has lived 87.5 % of a billing cycle and nobody in it was assigned before day 2.
  static func readout(id: String = "paywall-price-2026-09", assigned: [Int] = [920, 915], p: Double = 0.907)
    throws -> Readout
  {
    let usd = try currency("USD")
    let jpy = try currency("JPY")
    let kwd = try currency("KWD")
    let experiment = Experiment(
      id: id, enrollStart: start, enrollEnd: CivilDate(year: 2026, month: 10, day: 15),
      arms: [
        ExperimentArm(id: "control", weight: 50, products: [ProductRef(parsing: "com.acme.pro.monthly")]),
        ExperimentArm(id: "high", weight: 50, products: [ProductRef(parsing: "com.acme.pro.monthly.hi")]),
      ])
    func arm(_ index: Int, verdict: Verdict, difference: Difference?, mature: Int) -> ArmReadout {
      let n = assigned[index]
      let k = Int64(index + 1)
      return ArmReadout(
        arm: experiment.arms[index],
        reporting: row(
          .reporting, usd, assigned: n, paid: 600, gross: 1_234_567 * k, proceeds: 987_654 * k, rpa: 1073 * k,
          interval: (1010.4 * Double(k), 1140.6 * Double(k)), lineages: 600, mature: mature),
        currencies: [
          row(
            .currency, jpy, assigned: n, paid: 100, gross: 56_450 * k, proceeds: 40_555, rpa: 44,
            interval: (40, 48)),
          row(
            .currency, kwd, assigned: n, paid: 10, gross: 1500 * k, proceeds: 1125, rpa: 1,
            interval: (0.6, 1.7)),
          row(
            .currency, usd, assigned: n, paid: 490, gross: 900_000 * k, proceeds: 700_000, rpa: 761,
            interval: (700, 800)),
        ],
        verdict: verdict, difference: difference,
        welch: Interval(low: 1009.2 * Double(k), high: 1141.5 * Double(k)),
        sample: SampleSummary(count: n, mean: 1073, variance: 4e5),
        series: series(firstDay: index * 2, perDay: 250 * k), renewalsByNumber: [600, 400],
        chainsAssignedAfterPurchase: 12 + index, chainsExcluded: 0, chainsOfOtherArmsProducts: 0)
    }
    let difference = Difference(
      estimate: 1073, bootstrap: Interval(low: 953.2, high: 1190.6), welch: Interval(low: 951, high: 1195),
      welchDegreesOfFreedom: 1830.2, relativeLift: 1,
      relativeLiftInterval: Interval(low: 0.8875, high: 1.1095))
    var arms = [
      arm(0, verdict: p < Readout.srmThreshold ? .srm : .immature, difference: nil, mature: 600),
      arm(1, verdict: p < Readout.srmThreshold ? .srm : .immature, difference: difference, mature: 525),
    ]
    arms[0].probabilityBest = 0.0125
    arms[1].probabilityBest = 0.9875
    return Readout(
      experiment: experiment, reportingCurrency: usd, reportDate: date,
      arms: arms,
      srm: ChiSquare.Test(statistic: 0.014, degreesOfFreedom: 1, pValue: p), lineage: CreditedCharges(),
      fxGaps: [],
      assignmentsOutsideWindow: 0, assignmentsToUnknownArms: 0, repeatedAssignments: 0, usersReassigned: 0)
  }

  /// The text or number of a cell, "" for a blank.
  static func value(_ sheet: XLSXPackage.Sheet, _ ref: String, _ strings: [String]) -> String {
    XLSXPackage.text(sheet.cells[ref], strings: strings) ?? sheet.cells[ref]?.value ?? ""
  }

  @Test func sheetPerExperimentWithArmTableWordsAndChart() throws {
    let dir = try TempDir()
    let path = dir.path("reports/price-tests.xlsx")
    let mismatch = try Self.readout(
      id: "price/test: [eu]*?\\ with a very long name indeed", assigned: [1000, 800], p: 2.1e-7)
    try PriceTestsWorkbook.write([try Self.readout(), mismatch], date: Self.date, to: path)

    let package = XLSXPackage(path)
    let names = try package.sheetNames()
    #expect(names == ["paywall-price-2026-09", "pricetest eu with a very long n"])
    #expect(names[1].count == 31)
    let strings = try package.sharedStrings()
    let styles = try package.styles()
    let sheet = try package.sheet("paywall-price-2026-09")

    // The arm table: header bold and frozen with an autofilter; reporting rows, then currency rows.
    #expect(sheet.frozenRows == 1)
    #expect(sheet.autofilter == "A1:Z9")
    for (i, title) in PriceTestsWorkbook.armHeader.enumerated() {
      let ref = XLSXWorksheet.cellName(row: 0, column: i)
      #expect(Self.value(sheet, ref, strings) == title)
      #expect(styles.isBold(style: sheet.cells[ref]?.style ?? 0), "\(ref)")
    }
    let order = (2...9).map {
      "\(Self.value(sheet, "B\($0)", strings)) \(Self.value(sheet, "R\($0)", strings))"
    }
    #expect(
      order == [
        "control USD", "high USD", "control JPY", "high JPY", "control KWD", "high KWD", "control USD",
        "high USD",
      ])
    #expect((2...3).allSatisfy { Self.value(sheet, "C\($0)", strings) == "reporting" })
    #expect((4...9).allSatisfy { Self.value(sheet, "C\($0)", strings) == "currency" })

    // Money: numbers in the currency's format (JPY none, USD two, KWD three decimals), code beside them.
    func money(_ ref: String, _ value: String, _ format: String) {
      let cell = sheet.cells[ref]
      #expect(cell?.type == nil, "\(ref) is a number")
      #expect(cell?.value == value, "\(ref)")
      #expect(styles.formatCode(style: cell?.style ?? 0) == format, "\(ref)")
    }
    money("S2", "12345.67", "#,##0.00")  // control's reporting gross
    money("U3", "19753.08", "#,##0.00")  // high's reporting proceeds
    money("V2", "10.73", "#,##0.00")  // revenue per assigned user
    money("W2", "10.1", "#,##0.00")  // rpa_low 1010.4 → 1010 cents
    money("X3", "22.81", "#,##0.00")  // rpa_high 2281.2 → 2281 cents
    money("S4", "56450", "#,##0")  // JPY
    money("S5", "112900", "#,##0")
    money("S6", "1.5", "#,##0.000")  // KWD 1500 fils
    money("T6", "0.015", "#,##0.000")
    money("U7", "1.125", "#,##0.000")
    money("S8", "9000", "#,##0.00")
    // Rates and shares as percentages, counts as integers with thousands separators, the p-value as a number, verdicts in words.
    for ref in ["M2", "N2", "O2", "Y2", "Y3", "M6"] {
      #expect(sheet.cells[ref]?.type == nil)
      #expect(styles.formatCode(style: sheet.cells[ref]?.style ?? 0) == "0.00%", "\(ref)")
    }
    for (ref, value) in [
      ("I2", "920"), ("I3", "915"), ("L2", "600"), ("P2", "1200"), ("Q2", "1"), ("L6", "10"),
    ] {
      #expect(sheet.cells[ref]?.type == nil)
      #expect(sheet.cells[ref]?.value == value, "\(ref)")
      #expect(styles.formatCode(style: sheet.cells[ref]?.style ?? 0) == "#,##0", "\(ref)")
    }
    #expect(sheet.cells["Z2"]?.value == "0.907")
    #expect(Self.value(sheet, "D3", strings) == "immature")
    #expect(Self.value(sheet, "D4", strings) == "", "currency rows carry no verdict")

    // The readout in words.
    let words = Set((10...30).map { Self.value(sheet, "A\($0)", strings) })
    for line in [
      "Sample ratio: assigned 920 / 915 (control / high) against weights 50 / 50, chi-square p = 0.907 — no mismatch",
      "control: 100% of credited chains have lived a full billing cycle (threshold 90%)",
      "high: 87.5% of credited chains have lived a full billing cycle (threshold 90%) — immature: too early to call",
      "control: 10.73 USD per assigned user (95% bootstrap [10.10, 11.41], Welch's t [10.09, 11.42]) — immature",
      "high: 21.46 USD per assigned user (95% bootstrap [20.21, 22.81], Welch's t [20.18, 22.83]); against control "
        + "+10.73 USD (95% bootstrap [+9.53, +11.91], Welch's t [+9.51, +11.95], 1,830 df) — immature",
    ] {
      #expect(words.contains(line), "\(line)")
    }
    let other = try package.sheet(names[1])
    let otherWords = (10...30).map { Self.value(other, "A\($0)", strings) }
    #expect(
      otherWords.contains(
        "Sample ratio: assigned 1000 / 800 (control / high) against weights 50 / 50, chi-square p = 2.1e-07 "
          + "— MISMATCH (p < 0.001): no winner is named"))
    #expect(Self.value(other, "D2", strings) == "srm")
    #expect(other.cells["Z2"]?.value.flatMap(Double.init) == 2.1e-7)

    // The curve: day in column A, one money column per arm (blank before the first assignment), dates.
    let titleRow = try #require(
      (10...40).first {
        Self.value(sheet, "A\($0)", strings)
          == "Cumulative revenue per assigned user (USD) by day since enrolment"
      })
    let header = titleRow + 1
    #expect(
      ["A", "B", "C", "D"].map { Self.value(sheet, "\($0)\(header)", strings) } == [
        "day", "control", "high", "date",
      ])
    #expect((0..<5).map { sheet.cells["A\(header + 1 + $0)"]?.value } == ["0", "1", "2", "3", "4"])
    #expect((0..<5).map { sheet.cells["B\(header + 1 + $0)"]?.value } == ["2.5", "5", "7.5", "10", "12.5"])
    #expect((0..<5).map { sheet.cells["C\(header + 1 + $0)"]?.value } == [nil, nil, "15", "20", "25"])
    #expect(styles.formatCode(style: sheet.cells["B\(header + 1)"]?.style ?? 0) == "#,##0.00")
    #expect(sheet.cells["D\(header + 1)"]?.value == String(Self.start.daysSinceEpoch + 25_569))

    // A native line chart per sheet, one series per arm, reading that data block; its drawing is attached.
    let entries = try package.entryNames()
    #expect(entries.contains("xl/charts/chart1.xml") && entries.contains("xl/charts/chart2.xml"))
    try Self.expectForest(package, sheet: sheet, strings: strings, styles: styles)
    let chart = try #require(
      try XLSXPackage.chart(package, containing: "Cumulative revenue per assigned user"))
    #expect(chart.contains("<c:lineChart>"))
    #expect(XLSXPackage.matches("<c:ser>", in: chart).count == 2)
    let (first, last) = (header + 1, header + 5)
    #expect(chart.contains("<c:f>'paywall-price-2026-09'!$A$\(first):$A$\(last)</c:f>"))
    #expect(chart.contains("<c:f>'paywall-price-2026-09'!$B$\(first):$B$\(last)</c:f>"))
    #expect(chart.contains("<c:f>'paywall-price-2026-09'!$C$\(first):$C$\(last)</c:f>"))
    // Days before the first assignment are gaps in the line, not zeros.
    #expect(chart.contains("<c:ptCount val=\"5\"/><c:pt idx=\"2\"><c:v>15</c:v></c:pt>"))
    #expect(
      chart.contains("<c:tx><c:v>control</c:v></c:tx>") && chart.contains("<c:tx><c:v>high</c:v></c:tx>"))
    #expect(chart.contains("Cumulative revenue per assigned user (USD)"))
    #expect(chart.contains("days since enrolment began (day 0 = 2026-09-01)"))
    #expect(chart.contains("USD per assigned user"))
    #expect(chart.contains("<c:legend>"))
    #expect(chart.contains("<c:numFmt formatCode=\"#,##0.00\" sourceLinked=\"0\"/>"))
    #expect(sheet.xml.contains("<drawing r:id="))
    let drawing = try package.entry("xl/drawings/drawing1.xml")
    #expect(
      drawing.contains("<xdr:row>\(header - 1)</xdr:row>"), "chart anchored on the data block's header row")
    #expect(drawing.contains("<xdr:col>5</xdr:col>"), "chart beside the data block")
    #expect(try package.entry("xl/worksheets/_rels/sheet1.xml.rels").contains("../drawings/drawing1.xml"))
  }

  @Test func sameReadoutsSameBytes() throws {
    let dir = try TempDir()
    try PriceTestsWorkbook.write([try Self.readout()], date: Self.date, to: dir.path("a.xlsx"))
    Thread.sleep(forTimeInterval: 1.1)
    try PriceTestsWorkbook.write([try Self.readout()], date: Self.date, to: dir.path("b.xlsx"))
    let a = try Data(contentsOf: URL(fileURLWithPath: dir.path("a.xlsx")))
    #expect(a == (try Data(contentsOf: URL(fileURLWithPath: dir.path("b.xlsx")))))
    // The pinned date is the report date, not the clock's.
    #expect(try XLSXPackage(dir.path("a.xlsx")).entry("docProps/core.xml").contains("2026-11-29T00:00:00Z"))
  }

  @Test func sheetNamesAreValidShortAndUnique() {
    #expect(
      PriceTestsWorkbook.sheetNames(["a/b", "A:B", "ab", "[]", "'quoted'", "History"]) == [
        "ab", "AB (2)", "ab (3)", "experiment", "quoted", "History (2)",
      ])
    let long = String(repeating: "x", count: 40)
    let names = PriceTestsWorkbook.sheetNames([long, long, long])
    #expect(
      names == [
        String(repeating: "x", count: 31), String(repeating: "x", count: 27) + " (2)",
        String(repeating: "x", count: 27) + " (3)",
      ])
    // Cut on a whole character, counted as Excel counts (UTF-16).
    let emoji = PriceTestsWorkbook.sheetNames([String(repeating: "a", count: 30) + "😀"])
    #expect(emoji == [String(repeating: "a", count: 30)])
  }

  @Test func percentagesAndPValuesInWords() {
    #expect(PriceTestsWorkbook.percentText(1) == "100%")
    #expect(PriceTestsWorkbook.percentText(0.9) == "90%")
    #expect(PriceTestsWorkbook.percentText(0.875) == "87.5%")
    #expect(PriceTestsWorkbook.percentText(0.12345) == "12.3%")
    #expect(PriceTestsWorkbook.pText(0.90681) == "0.907")
    #expect(PriceTestsWorkbook.pText(0.001) == "0.001")
    #expect(PriceTestsWorkbook.pText(0.00021) == "2.1e-04")
    #expect(PriceTestsWorkbook.grouped(1_830) == "1,830")
    #expect(PriceTestsWorkbook.grouped(999) == "999")
    #expect(PriceTestsWorkbook.grouped(-1_234_567) == "-1,234,567")
  }

  /// The forest plot: low, difference, high of each challenger as a line with circles on a scatter chart
  /// (which LibreOffice draws too), at the height of its `row on chart` cells, and a dashed zero line,
  /// reading the block below the words.
  static func expectForest(
    _ package: XLSXPackage, sheet: XLSXPackage.Sheet, strings: [String], styles: XLSXPackage.Styles
  ) throws {
    Self.expectReadoutFirst(sheet, styles: styles)
    let forest = try #require(try XLSXPackage.chart(package, containing: "Each arm vs control"))
    #expect(forest.contains("<c:scatterChart>") && !forest.contains("<c:hiLowLines>"))
    #expect(XLSXPackage.matches("<c:ser>", in: forest).count == 2)
    #expect(
      forest.contains("<c:tx><c:v>high</c:v></c:tx>")
        && forest.contains("<c:tx><c:v>no difference</c:v></c:tx>"))
    #expect(forest.contains("<c:symbol val=\"circle\"/>") && forest.contains("<a:prstDash val=\"dash\"/>"))
    let forestTitle = try #require(
      (10...80).first {
        Self.value(sheet, "A\($0)", strings).hasPrefix("Revenue per assigned user minus control's (USD)")
      })
    #expect(
      ["A", "B", "C", "D", "E"].map { Self.value(sheet, "\($0)\(forestTitle + 1)", strings) } == [
        "arm", "low", "difference", "high", "row on chart",
      ])
    let high = forestTitle + 2
    #expect(Self.value(sheet, "A\(high)", strings) == "high")
    #expect(
      ["B", "C", "D"].map { sheet.cells["\($0)\(high)"]?.value.flatMap(Double.init) }
        == [953, 1073, 1191].map { XLSXMoney.cellValue(minor: $0, digits: 2) })
    #expect(["E", "F", "G"].map { sheet.cells["\($0)\(high)"]?.value } == ["1", "1", "1"])
    #expect(Self.value(sheet, "A\(high + 1)", strings) == "zero")
    #expect(forest.contains("<c:f>'paywall-price-2026-09'!$B$\(high):$D$\(high)</c:f>"))
    #expect(forest.contains("<c:f>'paywall-price-2026-09'!$E$\(high):$G$\(high)</c:f>"))
  }

  /// The product manager's readout first: lift with its interval and P(best), as percentages.
  static func expectReadoutFirst(_ sheet: XLSXPackage.Sheet, styles: XLSXPackage.Styles) {
    #expect(sheet.cells["Y3"]?.value == "0.875")
    #expect(sheet.cells["Y4"] == nil, "no maturity on a currency row without subscriptions")
    #expect(["E3", "F3", "G3"].map { sheet.cells[$0]?.value } == ["1", "0.8875", "1.1095"])
    #expect(sheet.cells["E2"] == nil, "control has no lift over itself")
    #expect(sheet.cells["H2"]?.value == "0.0125" && sheet.cells["H3"]?.value == "0.9875")
    for ref in ["E3", "F3", "G3", "H2", "H3"] {
      #expect(styles.formatCode(style: sheet.cells[ref]?.style ?? 0) == "0.00%", "\(ref)")
    }
    #expect(sheet.cells["H4"] == nil, "currency rows carry no P(best)")
  }
}
