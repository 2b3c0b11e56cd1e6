import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters

@Suite struct AppleFinancialSummaryImporterTests {
  static let title = "\"iTunes Connect - Payments and Financial Reports\t(October, 2026)\",,,,,,,,,,,,"
  static let header =
    "Region (Currency),Units Sold,Earned,Pre-Tax Subtotal,Input Tax,Adjustments,Withholding Tax,Total Owed,Exchange Rate,Proceeds,Bank Account Currency,"

  @Test func regionsThePaymentAndTheAccount() throws {
    let dir = try TempDir()
    let text = [
      Self.title, ",,,,,,,,,,,,", Self.header,
      "\"Japan (JPY)\",\"3\",\"260\",\"260\",\"0\",\"0\",\"-52\",\"208\",\"0.00817\",\"1.70\",\"EUR\",",
      "Euro-Zone (EUR),\"12\",\"31.40\",\"33.40\",\"0\",\"-1.00\",\"0\",\"32.40\",\"1.00000\",\"32.40\",\"EUR\",",
      ",,,,,,,,,,,,", ",,,,,,,,,,\"34.10\" EUR,,", ",,,,,,,,,,Paid to EXAMPLE BANK -****0042,,",
      ",,,,,,,,,,,,",
    ].joined(separator: "\n")
    let result = try ReportFormat.financialSummary.read(text: text, name: "financial_report.csv", in: dir)
    #expect(result.rejects == [])
    #expect(result.counts == InputCounts(read: 3, accepted: 3, rejected: 0))
    let rows = result.rows.appleFinancialSummary
    try #require(rows.count == 2)
    let jpy = try #require(Currency.named("JPY"))
    let eur = try #require(Currency.named("EUR"))
    #expect(rows[0].month == CivilDate(year: 2026, month: 10, day: 1))
    #expect(rows[0].region == "Japan")
    #expect(rows[0].currency == jpy)
    #expect(rows[0].units == 3)
    #expect(rows[0].earnedMinor == 260)
    #expect(rows[0].withholdingTaxMinor == -52)
    #expect(rows[0].totalOwedMinor == 208)
    #expect(rows[0].exchangeRate == "0.00817")
    #expect(rows[0].proceedsMinor == 170)
    #expect(rows[0].bankCurrency == eur)
    #expect(rows[1].region == "Euro-Zone")
    #expect(rows[1].carriedMinor == 200)
    #expect(rows[1].adjustmentsMinor == -100)
    let payment = try #require(result.rows.applePayments.first)
    #expect(payment.amountMinor == 3410)
    #expect(payment.currency == eur)
    #expect(payment.paidTo == "Paid to EXAMPLE BANK -****0042")
    #expect(payment.origin.line == 7)
  }

  @Test func theNewerHeaderAndAPaymentWrittenInOneCell() throws {
    let dir = try TempDir()
    let text = [
      "\"iTunes Connect - Payments and Financial Reports\t(July, 2026)\"",
      "Country or Region (Currency),Units Sold,Earned,Input Tax,Adjustments,Withholding Tax,Total Owed,Proceeds,Bank Account Currency",
      "Mexico (MXN),19,2999.72,0,479.92,0,3479.64,3479.64,MXN", ",,,,,,,\"3479.64 MXN\",",
    ].joined(separator: "\n")
    let result = try ReportFormat.financialSummary.read(text: text, name: "financial_report.csv", in: dir)
    #expect(result.rejects == [])
    #expect(result.rows.appleFinancialSummary.first?.exchangeRate == "")
    #expect(result.rows.applePayments.first?.amountMinor == 347_964)
  }

  @Test func badLinesAreRejectedWithTheirReason() throws {
    let dir = try TempDir()
    let text = [
      Self.title, Self.header,
      "\"Japan (JPY)\",\"3\",\"260.5\",\"260\",\"0\",\"0\",\"-52\",\"208\",\"0.00817\",\"1.70\",\"EUR\",",
      "Moon,\"3\",\"260\",\"260\",\"0\",\"0\",\"-52\",\"208\",\"0.00817\",\"1.70\",\"EUR\",",
      "\"Japan (JPY)\",\"3\",\"260\",\"260\",\"0\",\"0\",\"-52\",\"208\",\"-0.1\",\"1.70\",\"EUR\",",
      ",,,,,,,,,,\"12.00\" XXY,,",
    ].joined(separator: "\n")
    let result = try ReportFormat.financialSummary.read(text: text, name: "financial_report.csv", in: dir)
    #expect(result.counts == InputCounts(read: 4, accepted: 0, rejected: 4))
    #expect(result.reasons.count == 4)
    #expect(result.reasons[1].contains("names no currency in parentheses"))
    #expect(result.reasons[2].contains("Exchange Rate"))
    #expect(result.reasons[3].contains("is not a payment"))
  }

  @Test func aFileWithoutItsTitleMonthIsRefused() throws {
    let dir = try TempDir()
    let text = [Self.header, "Japan (JPY),1,1,1,0,0,0,1,0.00817,0.01,EUR,"].joined(separator: "\n")
    #expect(throws: InputError.self) {
      _ = try ReportFormat.financialSummary.read(text: text, name: "financial_report.csv", in: dir)
    }
  }
}
