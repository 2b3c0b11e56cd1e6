import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore

@Suite struct LedgerStorageTests {
  @Test func tokensRoundTrip() {
    let store = TokenStore()
    let tokens = [
      "c9ca70cb-1314-4494-a3f3-b1d18c20d85e", "C9CA70CB-1314-4494-A3F3-B1D18C20D85E",
      "c9ca70cb-1314-4494-A3F3-b1d18c20d85e", "u0000002", "", "00000000-0000-0000-0000-000000000000",
      "ffffffff-ffff-ffff-ffff-ffffffffffff", "c9ca70cb_1314-4494-a3f3-b1d18c20d85e", "é",
    ]
    let numbers = tokens.map { token in
      var text = token
      return text.withUTF8 { store.add($0) }
    }
    for (token, number) in zip(tokens, numbers) { #expect(store.string(number) == token) }
    // UUIDs in one case are kept as 16 bytes (the top bit marks them); mixed case stays text.
    #expect(numbers[0] & (1 << 31) != 0 && numbers[1] & (1 << 31) != 0)
    #expect(numbers[2] & (1 << 31) == 0)
  }

  @Test func growableBufferKeepsItsElements() {
    let buffer = GrowableBuffer<Int64>()
    for n in 0..<100_000 { buffer.append(Int64(n) * 3) }
    #expect(buffer.count == 100_000)
    #expect(buffer[0] == 0 && buffer[99_999] == 299_997)
    buffer[5] = -1
    #expect(buffer.buffer[5] == -1)
    buffer.append(repeating: 7, count: 10)
    #expect(buffer.count == 100_010 && buffer[100_009] == 7)
    buffer.removeAll()
    #expect(buffer.count == 0)
  }

  @Test func chainsAreSortedByStoreThenKeyAsStringsAre() {
    let keys = [
      "2000000000000019", "200000000000002", "10000000000000000000", "GPA.1234-5678-9012-34567", "tokB.AO-1",
      "tokA.AO-1", "TOK", "e\u{301}", "é2", "abcdefghijklmnopq", "abcdefghijklmnop", "9",
    ]
    var records: [StoreTransaction] = []
    for (n, key) in keys.enumerated() {
      records.append(Fx.apple("t\(n)", original: key, at: Fx.at("2026-11-01T00:00:00Z"), expires: nil))
      var play = Fx.playStatus(
        token: key, latestOrder: "GPA.0000-0000-0000-0000\(n % 10)", start: Fx.at("2026-11-01T00:00:00Z"),
        expiry: Fx.at("2026-12-01T00:00:00Z"))
      play.purchaseToken = key
      records.append(play)
    }
    let ledger = Fx.ledger(records)
    let got = ledger.chains.map { "\($0.store.rawValue) \($0.key)" }
    let apple = keys.sorted().map { "app_store \($0)" }
    #expect(Array(got.prefix(apple.count)) == apple)
    #expect(got.dropFirst(apple.count).allSatisfy { $0.hasPrefix("play ") })
    let play = got.dropFirst(apple.count).map { String($0.dropFirst(5)) }
    #expect(play == play.sorted())
    for key in keys { #expect(ledger.chain(store: .appStore, key: key)?.key == key, "\(key)") }
  }
}
