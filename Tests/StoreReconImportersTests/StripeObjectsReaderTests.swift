import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconImporters
import StoreReconIO
import StoreReconPlatform

/// The `stripe.objects` reader: currencies, both API shapes, rejections, duplicates and later states.
@Suite struct StripeObjectsReaderTests {
  func read(_ files: [[String]], window: StoreTimeWindow = .standalone) throws -> StripeImport {
    let dir = try TempDir()
    var inputs: [StripeObjectsReader.Input] = []
    for (n, lines) in files.enumerated() {
      let path = try dir.write("objects\(n).jsonl", lines.joined(separator: "\n") + "\n")
      inputs.append(StripeObjectsReader.Input(index: Int32(n), path: path, display: "objects\(n).jsonl"))
    }
    return StripeObjectsReader(window: window).read(inputs)
  }

  /// A paid invoice of `currency` for `amount` in Stripe's smallest unit, with a long id.
  func invoice(
    _ id: String, _ amount: Int64, _ currency: String, sub: String = "sub_1QabcDEF0123456789xyzUVW"
  )
    -> String
  {
    #"{"object":"invoice","id":"\#(id)","status":"paid","amount_paid":\#(amount),"currency":"\#(currency)","subscription":"\#(sub)","created":1795000000,"status_transitions":{"paid_at":1795000000},"lines":{"data":[{"period":{"start":1795000000,"end":1797592000},"price":{"id":"price_1X","lookup_key":"pro_monthly"}}]}}"#
  }

  @Test("the run's time window is the reader's own: a time past T + 10 years is rejected, as of T")
  func timesPastTheRunsWindowAreRejected() throws {
    // 1795000000 s is 2026-11-18; as of 2016-01-01 that is more than ten years after the report date.
    let asOf2016 = StoreTimeWindow(asOf: Instant(ms: 1_451_606_400_000))
    let early = try read([[invoice("in_late", 999, "usd")]], window: asOf2016)
    #expect(early.files[0]?.counts == InputCounts(read: 1, accepted: 0, rejected: 1))
    #expect(
      early.files[0]?.rejects.first?.reason.hasSuffix("is more than 10 years after the report date") == true)
    let now = try read(
      [[invoice("in_late", 999, "usd")]], window: StoreTimeWindow(asOf: Instant(ms: 1_796_000_000_000)))
    #expect(now.files[0]?.counts == InputCounts(read: 1, accepted: 1, rejected: 0))
  }

  @Test("a long Stripe read shows its share of each file and the time left, as the other inputs do")
  func eachFilesReadHasItsProgressMeter() throws {
    let dir = try TempDir()
    let lines = (0..<30_000).map { invoice("in_\($0)", 999, "usd") }
    let path = try dir.write("objects.jsonl", lines.joined(separator: "\n") + "\n")
    let size = Int64(lines.reduce(0) { $0 + $1.utf8.count + 1 })
    let sink = MemoryProgress()
    // A read this short is quiet by default: `quiet: .zero` makes it show as a long one would.
    let result = StripeObjectsReader().read(
      [StripeObjectsReader.Input(index: 0, path: path, display: "objects.jsonl")],
      meter: {
        ReadProgress(label: "stripe.objects \($0.display)", totalBytes: size, sink: sink, quiet: .zero)
      })
    #expect(result.files[0]?.counts.accepted == 30_000)
    #expect(
      sink.lines.contains { $0.hasPrefix("reading stripe.objects objects.jsonl: ") && $0.contains("% of ") })
    #expect(sink.lines.contains { $0.hasPrefix("reading stripe.objects objects.jsonl: 100 % of ") })
  }

  @Test func currenciesConvertToISOMinorUnits() throws {
    let result = try read([
      [
        invoice("in_usd", 999, "usd"), invoice("in_jpy", 1500, "jpy"), invoice("in_mga", 5000, "mga"),
        invoice("in_isk", 129_900, "isk"), invoice("in_huf", 299_000, "huf"),
        invoice("in_twd", 15_000, "twd"),
        invoice("in_ugx", 3700, "ugx"), invoice("in_kwd", 1250, "kwd"),
      ]
    ])
    let records = result.files[0]?.records ?? []
    let amounts = Dictionary(uniqueKeysWithValues: records.map { ($0.transactionId, $0.amountMinor) })
    #expect(amounts["in_usd"] == 999)
    #expect(amounts["in_jpy"] == 1500)
    #expect(amounts["in_mga"] == 500_000)  // zero-decimal in Stripe, two digits in ISO 4217
    #expect(amounts["in_isk"] == 1299)  // two-decimal in Stripe, none in ISO 4217
    #expect(amounts["in_huf"] == 299_000)
    #expect(amounts["in_twd"] == 15_000)
    #expect(amounts["in_ugx"] == 3700)
    #expect(amounts["in_kwd"] == 1250)
    #expect(records.first { $0.transactionId == "in_isk" }?.currency?.code == "ISK")
    #expect(result.files[0]?.counts == InputCounts(read: 8, accepted: 8, rejected: 0))
  }

  @Test func badMoneyAndBadLinesAreRejectedWithTheirReason() throws {
    let result = try read([
      [
        invoice("in_ok", 999, "usd"), invoice("in_xyz", 999, "xyz"), invoice("in_isk", 150, "isk"),
        "not json", #"{"id":"x"}"#, #"{"object":"payout","id":"po_1","amount":5}"#,
      ]
    ])
    let file = try #require(result.files[0])
    #expect(file.counts.read == 6)
    #expect(
      file.counts.read == file.counts.accepted + file.counts.rejected + file.duplicates + file.superseded)
    let reasons = file.rejects.map(\.reason)
    #expect(reasons.contains { $0.contains("in_xyz") && $0.contains("unknown currency") })
    #expect(reasons.contains { $0.contains("in_isk") && $0.contains("ISK") })
    #expect(reasons.contains { $0.contains("not valid JSON") })
    #expect(reasons.contains { $0.contains("missing \"object\"") })
    #expect(result.unknownTypes == ["payout": 1])
    #expect(result.unknownNote?.contains("payout 1") == true)
    #expect(file.records.map(\.transactionId) == ["in_ok"])
    #expect(file.rejects.map(\.line) == file.rejects.map(\.line).sorted())
  }

  @Test func invalidUTF8IsRejectedAtItsLine() throws {
    let dir = try TempDir()
    let bytes =
      Array(invoice("in_ok", 999, "usd").utf8) + [0x0A] + Array(#"{"object":"charge","id":"ch_"#.utf8)
      + [0xFF, 0xFE] + Array(#""}"#.utf8) + [0x0A]
    let path = try dir.write("objects.jsonl", bytes: bytes)
    let result = StripeObjectsReader().read([
      StripeObjectsReader.Input(index: 0, path: path, display: "objects.jsonl")
    ])
    #expect(result.files[0]?.counts == InputCounts(read: 2, accepted: 1, rejected: 1))
    #expect(result.files[0]?.rejects.first?.line == 2)
  }

  @Test func repeatsAreDuplicatesAndOlderStatesAreSuperseded() throws {
    let active =
      #"{"object":"subscription","id":"sub_1","status":"active","created":1795000000,"trial_start":1795000000,"trial_end":1795600000}"#
    let canceled =
      #"{"object":"subscription","id":"sub_1","status":"canceled","created":1795000000,"canceled_at":1795100000,"ended_at":1795100000,"trial_start":1795000000,"trial_end":1795600000}"#
    // The canceled state is read first, the older active one later (in another file): the canceled stays.
    let result = try read([
      [canceled, canceled],
      [
        #"{"object":"event","id":"evt_1","type":"customer.subscription.updated","created":1795050000,"data":{"object":\#(active)}}"#
      ],
    ])
    #expect(result.files[0]?.duplicates == 1)
    #expect(result.files[1]?.superseded == 1)
    #expect(result.files[0]?.counts.accepted == 1)
    #expect(result.files[1]?.counts.accepted == 0)
    let trial = try #require(result.files[0]?.records.first)
    #expect(trial.isTrial)
    #expect(trial.expiresAt == Instant(ms: 1_795_100_000_000))  // ended before the trial's end
  }

  @Test func bothShapesNameTheSameSubscriptionAndPayment() throws {
    let acacia =
      #"{"object":"invoice","id":"in_1","status":"paid","amount_paid":999,"currency":"usd","subscription":"sub_9","charge":"ch_9","payment_intent":"pi_9","created":1795000000,"lines":{"data":[{"period":{"start":1795000000,"end":1797592000},"price":{"id":"price_1X","lookup_key":"pro_monthly"}}]}}"#
    let basil =
      #"{"lines":{"data":[{"pricing":{"price_details":{"price":"price_1X"}},"period":{"end":1797592000,"start":1795000000}}]},"created":1795000000,"payments":{"data":[{"payment":{"type":"payment_intent","payment_intent":"pi_9"}}]},"parent":{"subscription_details":{"subscription":"sub_9"}},"currency":"usd","amount_paid":999,"status":"paid","id":"in_1","object":"invoice"}"#
    let price = #"{"object":"price","id":"price_1X","lookup_key":"pro_monthly"}"#
    let refund =
      #"{"object":"refund","id":"re_1","charge":"ch_9","payment_intent":"pi_9","amount":999,"currency":"usd","status":"succeeded","created":1795100000}"#
    let charge =
      #"{"object":"charge","id":"ch_9","payment_intent":"pi_9","amount":999,"currency":"usd","status":"succeeded","paid":true,"created":1795000000}"#
    for invoice in [acacia, basil] {
      let records = try read([[invoice, price, refund, charge]]).files[0]?.records ?? []
      #expect(records.count == 2)
      let purchase = try #require(records.first { $0.kind == .purchase })
      #expect(purchase.chainKey == "sub_9")
      #expect(purchase.productId == "pro_monthly")
      #expect(purchase.revokedAt == Instant(ms: 1_795_100_000_000))
      #expect(records.first { $0.kind == .refund }?.amountMinor == 999)
    }
  }

  @Test func aReorderedRepeatIsADuplicateAndTheLaterOfEqualInstantsWins() throws {
    let past =
      #"{"object":"subscription","id":"sub_1QabcDEF0123456789xyzUVW","status":"past_due","created":1795000000,"trial_start":1795000000,"trial_end":1795600000}"#
    let reordered =
      #"{"trial_end":1795600000,"trial_start":1795000000,"created":1795000000,"status":"past_due","id":"sub_1QabcDEF0123456789xyzUVW","object":"subscription"}"#
    let canceled =
      #"{"object":"subscription","id":"sub_1QabcDEF0123456789xyzUVW","status":"canceled","created":1795000000,"trial_start":1795000000,"trial_end":1795600000}"#
    // Same instants (no event, the same own timestamps): the line read later wins; the reordered repeat
    // of the first line is a duplicate.
    let result = try read([[past, reordered], [canceled]])
    #expect(result.files[0]?.duplicates == 1)
    #expect(result.files[0]?.superseded == 1)
    #expect(result.files[0]?.counts.accepted == 0)
    #expect(result.files[1]?.counts.accepted == 1)
    let trial = try #require(result.files[1]?.records.first)
    #expect(trial.noGrace)  // canceled: the later state
    for file in result.files.values {
      #expect(
        file.counts.read == file.counts.accepted + file.counts.rejected + file.duplicates + file.superseded)
    }
  }
}
