import Testing

@testable import StoreReconCore
import StoreReconPlatform
@testable import StoreReconReports

@Suite struct RunPartialTests {
  static func spec(_ i: Int, _ n: Int) -> PartitionSpec {
    PartitionSpec(index: i, count: n) ?? PartitionSpec(index: 0, count: 1)!
  }

  static func sample(_ i: Int, _ n: Int) -> RunPartial {
    var p = RunPartial(partition: spec(i, n), date: CivilDate(year: 2026, month: 11, day: 29))
    p.inputs = "3f2a"
    p.keymap = "9c1d"
    var f = Finding(
      reason: .unclaimed, store: .appStore, chainKey: "20000\(i)", userId: "", productId: "pro\tmonthly",
      currency: Currency.named("JPY"), amountMinor: 600, detail: "line one\nline two \\ end")
    f.notificationId = i == 0 ? "n-1" : nil
    p.findings = [f]
    var r = RevenueRow(
      day: CivilDate(year: 2026, month: 11, day: 28), store: .play, productId: "pro",
      currency: Currency.named("EUR")!)
    r.charges = 2
    r.grossMinor = 998
    r.proceedsMinor = 700 + Int64(i)
    r.proceedsSource = i == 0 ? .settled : .estimated
    r.disputedMinor = 500 + Int64(i)
    r.disputeFeesMinor = 1500
    p.revenue = [r]
    var c = CountsRow(store: .play, productId: "pro")
    c.chainsPaidThrough = 3
    p.counts = [c]
    p.playUnits = ["pro": 2]
    p.tieOut.cells = [
      TieOutFeedRows.Cell(
        source: .playEarnings, day: CivilDate(year: 2026, month: 10, day: 1), productId: "pro", country: "DE",
        currency: Currency.named("EUR")!, units: 1, grossMinor: 499, proceedsMinor: 424, freeUnits: 0)
    ]
    p.tieOut.orders = [
      TieOutFeedRows.Order(
        orderId: "GPA.1234-5678-9012-3456\(i)", month: CivilDate(year: 2026, month: 10, day: 1),
        productId: "pro",
        currency: Currency.named("EUR")!, itemMinor: 499, feeMinor: 75)
    ]
    p.grants = [
      GrantRow(
        source: "goodwill", grantId: "g\(i)", userId: "u\(i)", productId: "pro", startsAt: Instant(ms: 1000),
        endsAt: nil, active: true, reason: "support")
    ]
    p.unchecked = [.appStore: 1]
    p.notificationFields = i == 0 ? ["app_store|n-1": ["DID_RENEW", "", "", "", "3"]] : [:]
    return p
  }

  @Test func partialsRoundTripThroughTheirText() throws {
    let p = RunPartialTests.sample(1, 3)
    let parsed = try RunPartial(parsing: p.rendered())
    #expect(parsed == p)
  }

  @Test func aCutShortOrWrongFileIsRefusedWithItsLine() {
    var bytes = RunPartialTests.sample(0, 2).rendered()
    bytes.removeLast("end\n".utf8.count)
    #expect(throws: PartialText.FormatError.self) { try RunPartial(parsing: bytes) }
    #expect(throws: PartialText.FormatError.self) {
      try RunPartial(parsing: Array("storerecon-keymap 1\n".utf8))
    }
    var badTag = Array("storerecon-partial 2\npartition\t0\t1\ndate\t2026-11-29\nXX\tz\nend\n".utf8)
    badTag += Array("sha256\t\(SHA256Digest.hex(of: badTag))\n".utf8)
    do {
      _ = try RunPartial(parsing: badTag)
      Issue.record("an unknown tag was read")
    } catch {
      #expect(error.line == 4)
    }
  }

  /// A partial states the SHA-256 of its content; one changed after its partition wrote it is refused,
  /// naming its last line (issue 32).
  @Test func anEditedPartialIsRefusedByItsChecksum() throws {
    let bytes = RunPartialTests.sample(0, 2).rendered()
    let text = String(decoding: bytes, as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines[lines.count - 2].hasPrefix("sha256\t"))
    #expect(lines[lines.count - 3] == "end")
    // An amount ×100, a finding deleted, the checksum line removed: each refused.
    let revenue = try #require(lines.firstIndex { $0.hasPrefix("R\t") })
    var fields = lines[revenue].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    fields[6] += "00"
    var edited = lines.map(String.init)
    edited[revenue] = fields.joined(separator: "\t")
    var deleted = lines.map(String.init)
    deleted.remove(at: try #require(lines.firstIndex { $0.hasPrefix("F\t") }))
    var unsigned = lines.map(String.init)
    unsigned.remove(at: lines.count - 2)
    for (name, variant) in [("edited", edited), ("deleted", deleted), ("unsigned", unsigned)] {
      do {
        _ = try RunPartial(parsing: Array(variant.joined(separator: "\n").utf8))
        Issue.record("\(name): read")
      } catch {
        #expect(error.line == variant.count - 1, "\(name)")
        #expect(
          error.reason.contains(name == "unsigned" ? "no 'sha256' line" : "does not match its sha256 line"),
          "\(name): \(error.reason)")
      }
    }
  }

  @Test func mergingAddsUpSumsAndTakesTheLeastSettledSource() throws {
    let merged = try RunPartial.merged([RunPartialTests.sample(1, 2), RunPartialTests.sample(0, 2)])
    #expect(merged.findings.count == 2)
    #expect(merged.findings.map(\.chainKey) == ["200000", "200001"])
    #expect(merged.revenue.count == 1)
    #expect(merged.revenue[0].charges == 4)
    #expect(merged.revenue[0].proceedsMinor == 1401)
    #expect(merged.revenue[0].disputedMinor == 1001)
    #expect(merged.revenue[0].disputeFeesMinor == 3000)
    #expect(merged.revenue[0].proceedsSource == .estimated)
    #expect(merged.counts[0].chainsPaidThrough == 6)
    #expect(merged.playUnits == ["pro": 4])
    #expect(merged.tieOut.cells.count == 1)
    #expect(merged.tieOut.cells[0].grossMinor == 998)
    #expect(merged.tieOut.orders.count == 2)
    #expect(merged.grants.map(\.grantId) == ["g0", "g1"])
    #expect(merged.unchecked == [.appStore: 2])
  }

  @Test func aMergeNeedsEveryPartitionOnceAndNoOverflow() {
    #expect(throws: PartialMergeError.self) {
      try RunPartial.merged([RunPartialTests.sample(0, 3), RunPartialTests.sample(1, 3)])
    }
    #expect(throws: PartialMergeError.self) {
      try RunPartial.merged([RunPartialTests.sample(0, 2), RunPartialTests.sample(0, 2)])
    }
    #expect(throws: PartialMergeError.self) {
      try RunPartial.merged([RunPartialTests.sample(0, 2), RunPartialTests.sample(1, 3)])
    }
    var other = RunPartialTests.sample(1, 2)
    other.inputs = "another"
    #expect(throws: PartialMergeError.self) { try RunPartial.merged([RunPartialTests.sample(0, 2), other]) }
    other = RunPartialTests.sample(1, 2)
    other.keymap = "another"
    #expect(throws: PartialMergeError.self) { try RunPartial.merged([RunPartialTests.sample(0, 2), other]) }
    var big = RunPartialTests.sample(0, 2)
    big.revenue[0].grossMinor = Int64.max
    do {
      _ = try RunPartial.merged([big, RunPartialTests.sample(1, 2)])
      Issue.record("an overflowing sum was merged")
    } catch {
      #expect(error.message.contains("overflows"))
    }
  }

  static func share(_ i: Int, lines: [Int]) -> EngineInput {
    var e = EngineInput()
    e.counts = InputCounts(read: 10 + i, accepted: 10 + i - lines.count, rejected: lines.count)
    e.firstAt = Instant(ms: Int64(1000 - i))
    e.lastAt = Instant(ms: Int64(5000 + i))
    e.unverified = i
    e.signatures = "verify + test root"
    e.rejects = lines.map {
      Reject(file: "exports/apple/t.jsonl", line: $0, reason: "not valid JSON\tat byte 3", raw: "{\"a\":\n")
    }
    return e
  }

  @Test func engineInputsRoundTripAndAddUpInLineOrder() throws {
    var a = RunPartialTests.sample(0, 2)
    var b = RunPartialTests.sample(1, 2)
    a.engineInputs = [0: RunPartialTests.share(0, lines: [2, 9]), 4: RunPartialTests.share(0, lines: [])]
    b.engineInputs = [
      0: RunPartialTests.share(1, lines: [5, 7, 12]), 4: RunPartialTests.share(1, lines: [1]),
    ]
    #expect(try RunPartial(parsing: a.rendered()) == a)
    let merged = try RunPartial.merged([b, a])
    let t = try #require(merged.engineInputs[0])
    #expect(t.counts == InputCounts(read: 21, accepted: 16, rejected: 5))
    #expect(t.rejects.map(\.line) == [2, 5, 7, 9, 12])
    #expect(t.firstAt == Instant(ms: 999) && t.lastAt == Instant(ms: 5001) && t.unverified == 1)
    #expect(merged.engineInputs[4]?.rejects.map(\.line) == [1])
    // A partial of run --partition (no engine inputs) does not merge with a worker's.
    b.engineInputs = [:]
    #expect(throws: PartialMergeError.self) { try RunPartial.merged([a, b]) }
    // An IN line twice, or a reject before its IN line, is refused.
    var text = String(decoding: a.rendered(), as: UTF8.self)
    text = text.replacingOccurrences(of: "IN\t4\t", with: "IN\t0\t")
    #expect(throws: PartialText.FormatError.self) { try RunPartial(parsing: Array(text.utf8)) }
  }
}
