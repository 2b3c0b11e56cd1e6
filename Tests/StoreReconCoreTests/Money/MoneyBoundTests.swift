import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// The bound on one row's money and the checked sums (docs/inputs.md#amounts-beyond-the-bound).
@Suite struct MoneyBoundTests {
  let usd = Currency.named("USD")!
  let jpy = Currency.named("JPY")!

  @Test func theBoundIsTenToTheFifteenthEitherSign() {
    #expect(MoneyBound.holds(1_000_000_000_000_000))
    #expect(MoneyBound.holds(-1_000_000_000_000_000))
    #expect(!MoneyBound.holds(1_000_000_000_000_001))
    #expect(!MoneyBound.holds(.min))
    #expect(MoneyBound.product(3_000_000_000, 999_999_999_999) == nil)
    #expect(MoneyBound.product(.max, 2) == nil)
    #expect(MoneyBound.product(-2, 499) == -998)
  }

  @Test func conversionsRejectAnAmountBeyondTheBound() {
    #expect((try? usd.minor(decimal: "10000000000000.00")) == 1_000_000_000_000_000)
    #expect(throws: MoneyError.overflow("10000000000000.01")) { try usd.minor(decimal: "10000000000000.01") }
    #expect(throws: MoneyError.overflow("-90000000000000000.00")) {
      try usd.minor(decimal: "-90000000000000000.00")
    }
    #expect(throws: MoneyError.self) { try usd.minor(milliunits: 9_000_000_000_000_000_000) }
    #expect((try? jpy.minor(milliunits: 1_000_000_000_000_000_000)) == 1_000_000_000_000_000)
    #expect(throws: MoneyError.self) { try usd.minor(micros: .max) }
    #expect(throws: MoneyError.self) { try usd.minor(units: 20_000_000_000_000, nanos: 0) }
    #expect(MoneyError.overflow("1e99").description.contains("beyond the 10^15"))
  }

  @Test func checkedAddsFlagAnOverflowAndKeepGoing() {
    var sum: Int64 = .max - 1
    var overflow = false
    sum.add(1, overflow: &overflow)
    #expect(sum == .max && !overflow)
    sum.add(1, overflow: &overflow)
    #expect(overflow)
    var low: Int64 = .min
    var flag = false
    low.subtract(1, overflow: &flag)
    #expect(flag)
  }

  @Test func aTieOutCellWhoseSumOverflowsIsNamed() {
    let row = TieOutTests.sales("2026-11-10", units: 1, price: 999_999_999_999_999)
    let fine = TieOut.build(
      ledger: Fx.ledger([]), reports: TieOutTests.rows([row, row]), settings: Pacific.settings(["2026-11-10"])
    )
    #expect(fine.overflow == nil)
    let reports = TieOutTests.rows(Array(repeating: row, count: 9_300))
    let tieOut = TieOut.build(
      ledger: Fx.ledger([]), reports: reports, settings: Pacific.settings(["2026-11-10"]))
    #expect(tieOut.overflow == "apple_sales cell 2026-11-10 com.acme.pro.monthly US USD")
  }

  @Test func aPayoutTotalThatOverflowsIsMarked() {
    let usd = self.usd
    func earnings(_ amount: Int64) -> PlayEarningsRow {
      let month = CivilDate(year: 2026, month: 10, day: 1)
      return PlayEarningsRow(
        month: month, orderId: "GPA.1234-5678-9012-34567", day: month, type: .charge, productId: "pro",
        country: "US", buyerCurrency: usd, buyerAmountMinor: amount, merchantCurrency: usd,
        merchantAmountMinor: amount, origin: Origin(file: 0, line: 2))
    }
    var rows = StoreReportRows()
    rows.playEarnings = [earnings(499), earnings(-100)]
    #expect(PayoutTotal.payoutTotals(rows).map(\.overflowed) == [false])
    rows.playEarnings = [earnings(.max), earnings(1)]
    #expect(PayoutTotal.payoutTotals(rows).map(\.overflowed) == [true])
  }
}
