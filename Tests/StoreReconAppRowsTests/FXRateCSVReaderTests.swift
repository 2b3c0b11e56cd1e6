import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconAppRows

@Suite struct FXRateCSVReaderTests {
  func read(_ text: String) throws -> ImportResult<FXRate> {
    let dir = try TempDir()
    return try runReader(
      FXRateCSVReader(reporting: Fx.usd), try dir.write("rates.csv", text), name: "fx/rates.csv")
  }

  @Test func readsExactRates() throws {
    let result = try read(
      "currency,date,rate_to_reporting\nEUR,2026-09-01,1.0845\nJPY,2026-09-01,0.006712\nUSD,2026-09-01,1.000\n"
    )
    #expect(result.counts == InputCounts(read: 3, accepted: 3, rejected: 0))
    #expect(
      result.rows.map(\.rate) == [
        DecimalRate(mantissa: 10845, scale: 4), DecimalRate(mantissa: 6712, scale: 6), .one,
      ])
    #expect(result.rows.first?.date == CivilDate(year: 2026, month: 9, day: 1))
    #expect(result.rows.first?.currency.code == "EUR")
  }

  @Test func badRowsAreRejectedWithFileLineAndReason() throws {
    let text = """
      date,currency,rate_to_reporting
      2026-09-01,EUR,1.0845
      2026-09-31,EUR,1.08
      2026-09-02,XYZ,1.08
      2026-09-02,XAU,1800
      2026-09-02,GBP,1,27
      2026-09-02,GBP,-1.27
      2026-09-02,GBP,0
      2026-09-02,GBP,0.0000000000001
      2026-09-01,EUR,1.09
      2026-09-02,USD,1.01
      2026-09-02,CHF,
      """
    let result = try read(text)
    #expect(result.counts == InputCounts(read: 11, accepted: 1, rejected: 10))
    #expect(result.rejects.allSatisfy { $0.file == "fx/rates.csv" })
    #expect(result.rejects.map(\.line) == Array(3...12))
    #expect(
      result.rejects.map(\.reason) == [
        "date '2026-09-31' is not a date (YYYY-MM-DD)",
        "unknown currency 'XYZ'",
        "currency XAU has no minor unit and cannot hold money",
        "expected 3 fields as in the header, found 4",
        "rate '-1.27' is not a decimal number such as 1.0845",
        "rate '0' must be greater than zero",
        "rate '0.0000000000001' has more than 12 digits after the point",
        "a second rate for EUR on 2026-09-01",
        "rate of the reporting currency USD must be 1, found 1.01",
        "missing rate_to_reporting",
      ])
  }

  @Test func missingColumnFailsTheFile() throws {
    #expect(throws: InputError.missingColumns(file: "fx/rates.csv", ["rate_to_reporting"])) {
      try read("date,currency,rate\n2026-09-01,EUR,1.08\n")
    }
  }
}
