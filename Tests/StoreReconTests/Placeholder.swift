import Testing
@testable import StoreRecon

@Test func currencyTableHasEveryCode() {
  #expect(Currency.all.count == 189)
}
