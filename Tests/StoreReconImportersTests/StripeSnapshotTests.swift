import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconImporters
import StoreReconIO
import StoreReconPlatform

/// The snapshot of a Stripe file's read (docs/snapshot.md#stripe): replaying it gives exactly what
/// parsing the file gives, and it stands only for the bytes it was made from, under its key.
@Suite struct StripeSnapshotTests {
  static let key = [UInt8](repeating: 7, count: 32)
  static let asOf = Instant(ms: 1_796_000_000_000)

  /// Objects of every kind the reader keeps, a later state in another file, repeats, an event, a type
  /// it does not use, rejected lines, and an events-only file.
  static let files: [(name: String, lines: [String], eventsOnly: Bool)] = [
    (
      "objects.jsonl",
      [
        #"{"object":"customer","id":"cus_1QabcDEF0123456789xyzUVW","metadata":{"app_user_id":"u-1"}}"#,
        #"{"object":"product","id":"prod_1X"}"#,
        #"{"object":"price","id":"price_1X","lookup_key":"pro_monthly"}"#,
        #"{"object":"subscription","id":"sub_9","customer":"cus_1QabcDEF0123456789xyzUVW","status":"active","created":1795000000,"metadata":{"app_user_id":"u-1"},"items":{"data":[{"price":{"id":"price_1X","lookup_key":"pro_monthly"}}]}}"#,
        #"{"lines":{"data":[{"pricing":{"price_details":{"price":"price_1X"}},"period":{"end":1797592000,"start":1795000000}}]},"created":1795000000,"payments":{"data":[{"payment":{"type":"payment_intent","payment_intent":"pi_9"}}]},"parent":{"subscription_details":{"subscription":"sub_9"}},"currency":"usd","amount_paid":999,"status":"paid","id":"in_1","object":"invoice","total_taxes":[{"amount":80}]}"#,
        #"{"object":"invoice_payment","id":"inpay_1","invoice":"in_1","payment":{"type":"payment_intent","payment_intent":"pi_9","charge":"ch_9"}}"#,
        #"{"object":"charge","id":"ch_9","payment_intent":"pi_9","invoice":"in_1","amount":999,"currency":"usd","status":"succeeded","paid":true,"created":1795000000,"metadata":{"product_id":"pro_monthly"}}"#,
        #"{"object":"refund","id":"re_1","charge":"ch_9","payment_intent":"pi_9","amount":500,"currency":"usd","status":"succeeded","created":1795100000}"#,
        #"{"object":"dispute","id":"dp_1","charge":"ch_9","payment_intent":"pi_9","amount":499,"currency":"usd","status":"needs_response","created":1795200000}"#,
        #"{"object":"invoice","id":"in_xyz","status":"paid","amount_paid":999,"currency":"xyz","subscription":"sub_9","created":1795000000}"#,
        #"{"object":"payout","id":"po_1","amount":5}"#,
        // Hand-edited, as exports come: spaces, another member order, a UUID user, the API shape before
        // 2025-03-31 (its charge and payment intent on the invoice).
        #" { "metadata" : { "app_user_id" : "5f0c2a9e-1b7d-4c3e-9a41-2d6f8e0b7c15" } , "status" : "trialing" , "created" : 1795000000 , "trial_start" : 1795000000 , "trial_end" : 1795600000 , "id" : "sub_1RMNMwK3fWq2Lz8xwVzshurg" , "object" : "subscription" } "#,
        #"{"object":"invoice","id":"in_1AcaciaShape0000000000000","status":"paid","amount_paid":1299,"currency":"eur","subscription":"sub_1RMNMwK3fWq2Lz8xwVzshurg","charge":"ch_1AcaciaShape","payment_intent":"pi_1AcaciaShape","created":1795700000,"lines":{"data":[{"period":{"start":1795600000,"end":1798192000},"price":{"id":"price_1X","lookup_key":"pro_monthly"}}]}}"#,
        "not json",
        #"{"id":"x"}"#,
        #"{"object":"subscription","id":"sub_9","customer":"cus_1QabcDEF0123456789xyzUVW","status":"active","created":1795000000,"metadata":{"app_user_id":"u-1"},"items":{"data":[{"price":{"id":"price_1X","lookup_key":"pro_monthly"}}]}}"#,
      ], false
    ),
    (
      "later.jsonl",
      [
        #"{"object":"event","id":"evt_1","type":"customer.subscription.deleted","created":1795300000,"livemode":true,"data":{"object":{"object":"subscription","id":"sub_9","customer":"cus_1QabcDEF0123456789xyzUVW","status":"canceled","created":1795000000,"canceled_at":1795300000,"ended_at":1795300000,"metadata":{"app_user_id":"u-1"}}}}"#,
        #"{"object":"event","id":"evt_2","type":"payout.paid","created":1795300000,"data":{"object":{"object":"payout","id":"po_2"}}}"#,
        #"{"object":"refund","id":"re_1","charge":"ch_9","payment_intent":"pi_9","amount":500,"currency":"usd","status":"pending","created":1795000000}"#,
      ], false
    ),
    (
      "events.jsonl",
      [
        #"{"object":"event","id":"evt_1","type":"customer.subscription.deleted","created":1795300000,"livemode":true,"data":{"object":{"object":"subscription","id":"sub_9"}}}"#,
        #"{"object":"event","id":"evt_3","type":"invoice.paid","created":1795000000,"livemode":false,"data":{"object":{"object":"invoice","id":"in_1","subscription":"sub_9"}}}"#,
        #"{"object":"event","id":"evt_4","type":"charge.refunded","created":1795000000000000}"#,
      ], true
    ),
  ]

  /// The files written into `dir`.
  static func write(_ dir: TempDir) throws -> [String] {
    try files.map { try dir.write($0.name, $0.lines.joined(separator: "\n") + "\n") }
  }

  /// The reader's inputs over `paths`, each with a snapshot in `dir` (under `key`) unless `snapshots` is false.
  static func inputs(_ paths: [String], _ dir: TempDir, snapshots: Bool = true, key: [UInt8] = key)
    -> [StripeObjectsReader.Input]
  {
    paths.indices.map { n in
      StripeObjectsReader.Input(
        index: Int32(n + 2), path: paths[n], display: files[n].name, eventsOnly: files[n].eventsOnly,
        snapshot: snapshots
          ? StripeSnapshot(
            path: dir.path("snapshots/\(n).bin"), macKey: key,
            context: [UInt8](repeating: UInt8(n), count: 32),
            asOf: asOf, fresh: nil) : nil)
    }
  }

  static func read(_ inputs: [StripeObjectsReader.Input]) -> StripeImport {
    StripeObjectsReader(window: StoreTimeWindow(asOf: asOf)).read(inputs)
  }

  /// Everything a read gives, as text (the records, feed, events and rejects with every field).
  static func text(_ result: StripeImport) -> String {
    var out: [String] = []
    for index in result.files.keys.sorted() {
      guard let f = result.files[index] else { continue }
      out.append("file \(index): \(f.counts) dup \(f.duplicates) sup \(f.superseded) \(f.error ?? "")")
      out.append("  from \(String(describing: f.firstAt)) to \(String(describing: f.lastAt))")
      out += f.rejects.map { "  reject \($0)" }
      for r in f.records {
        out.append("  record \(r)")
        out.append(
          "    details \(String(describing: r.storedOrderBaseIds)) \(String(describing: r.latestOrderId)) "
            + "\(String(describing: r.purchaseToken)) \(String(describing: r.linkedChainKey)) "
            + "\(String(describing: r.revocationType)) \(String(describing: r.revocationReason)) "
            + "\(String(describing: r.revocationPercentMilli)) \(String(describing: r.state)) "
            + "\(String(describing: r.commitment))")
      }
    }
    out += result.unknownTypes.sorted { $0.key < $1.key }.map { "unknown \($0.key) \($0.value)" }
    out += result.feed.map { "feed \($0)" }
    out += result.events.map { "event \($0)" }
    out += result.aliases.sorted { $0.key < $1.key }.map { "alias \($0.key) \($0.value)" }
    out += result.openDisputes.sorted { $0.key < $1.key }.map { "dispute \($0.key) \($0.value)" }
    return out.joined(separator: "\n")
  }

  @Test("a second read replays every file from its snapshot and gives exactly what parsing gives")
  func aReplayGivesWhatTheParseGives() throws {
    let dir = try TempDir()
    let paths = try Self.write(dir)
    let plain = Self.text(Self.read(Self.inputs(paths, dir, snapshots: false)))
    // The fixture reaches every branch: records, rejects, repeats, events, unknown types, disputes.
    for word in ["record", "reject", "unknown payout", "feed", "event", "alias", "dispute", "sup 1", "dup 1"]
    {
      #expect(plain.contains(word), "the fixture has no \(word)")
    }
    // The hand-edited lines are read, not rejected: the trial's user and the older shape's invoice.
    let records = plain.split(separator: "\n").filter { $0.hasPrefix("  record ") }
    #expect(records.contains { $0.contains("5f0c2a9e-1b7d-4c3e-9a41-2d6f8e0b7c15") })
    #expect(records.contains { $0.contains("in_1AcaciaShape") || $0.contains("ch_1AcaciaShape") })
    let first = Self.inputs(paths, dir)
    #expect(Self.text(Self.read(first)) == plain)
    #expect(first.map { $0.snapshot?.outcome } == Array(repeating: .parsed("no snapshot yet"), count: 3))
    let second = Self.inputs(paths, dir)
    let replayed = Self.text(Self.read(second))
    #expect(second.map { $0.snapshot?.outcome } == Array(repeating: .replayed, count: 3))
    #expect(replayed == plain)
  }

  @Test("a changed file, another key, a damaged or a cut snapshot: parsed in full, never trusted")
  func aSnapshotStandsOnlyForItsBytesUnderItsKey() throws {
    let dir = try TempDir()
    var paths = try Self.write(dir)
    _ = Self.read(Self.inputs(paths, dir))
    // One more line in the second file: that file is parsed, the others replayed.
    var lines = Self.files[1].lines
    lines.append(
      #"{"object":"refund","id":"re_2","charge":"ch_9","amount":100,"currency":"usd","status":"succeeded","created":1795400000}"#
    )
    paths[1] = try dir.write(Self.files[1].name, lines.joined(separator: "\n") + "\n")
    let plain = Self.text(Self.read(Self.inputs(paths, dir, snapshots: false)))
    var inputs = Self.inputs(paths, dir)
    #expect(Self.text(Self.read(inputs)) == plain)
    #expect(inputs.map { $0.snapshot?.outcome } == [.replayed, .parsed("the file changed"), .replayed])
    // Another key: no snapshot is trusted.
    inputs = Self.inputs(paths, dir, key: [UInt8](repeating: 8, count: 32))
    #expect(Self.text(Self.read(inputs)) == plain)
    #expect(inputs.allSatisfy { $0.snapshot?.outcome.why?.contains("(HMAC) does not match") == true })
    // One bit flipped, and a snapshot cut short (the whole read's snapshot gone, so that each file's is read).
    DurableFile.remove(dir.path("snapshots/" + StripeReadSnapshot.fileName))
    let flipped = dir.path("snapshots/0.bin")
    var bytes = try #require(DurableFile.read(flipped))
    bytes[bytes.count / 3] ^= 4
    try DurableFile.write(bytes, to: flipped)
    try DurableFile.write(
      Array(try #require(DurableFile.read(dir.path("snapshots/2.bin"))).prefix(40)),
      to: dir.path("snapshots/2.bin"))
    inputs = Self.inputs(paths, dir, key: [UInt8](repeating: 8, count: 32))
    #expect(Self.text(Self.read(inputs)) == plain)
    #expect(inputs[0].snapshot?.outcome.why?.contains("(HMAC) does not match") == true)
    #expect(inputs[2].snapshot?.outcome == .parsed("the snapshot is not one (or is cut short): rebuilt"))
    inputs = Self.inputs(paths, dir, key: [UInt8](repeating: 8, count: 32))
    #expect(Self.text(Self.read(inputs)) == plain)
    #expect(inputs.map { $0.snapshot?.outcome } == Array(repeating: .replayed, count: 3))
  }

  @Test("a snapshot made for a later report date is not used for an earlier one")
  func anEarlierReportDateParsesAgain() throws {
    let dir = try TempDir()
    let paths = try Self.write(dir)
    _ = Self.read(Self.inputs(paths, dir))
    let earlier = Self.inputs(paths, dir).map { input in
      var input = input
      input.snapshot = StripeSnapshot(
        path: input.snapshot?.path ?? "", macKey: Self.key,
        context: [UInt8](repeating: UInt8(input.index - 2), count: 32),
        asOf: Instant(ms: Self.asOf.ms - 86_400_000), fresh: nil)
      return input
    }
    _ = StripeObjectsReader(window: StoreTimeWindow(asOf: Instant(ms: Self.asOf.ms - 86_400_000))).read(
      earlier)
    #expect(earlier.allSatisfy { $0.snapshot?.outcome.why?.hasPrefix("the report date moved back") == true })
  }

  @Test("the whole read's snapshot: taken only for the same files, in the same order, under its key")
  func theWholeReadIsTakenOnlyForTheSameFiles() throws {
    let dir = try TempDir()
    var paths = try Self.write(dir)
    let plain = Self.text(Self.read(Self.inputs(paths, dir, snapshots: false)))
    let first = Self.read(Self.inputs(paths, dir))
    #expect(first.wholeSnapshot?.outcome == .parsed("no snapshot yet"))
    // Unchanged files: the result is taken whole, each file's digest set as a read would.
    var inputs = Self.inputs(paths, dir)
    let taken = Self.read(inputs)
    #expect(taken.wholeSnapshot?.outcome == .replayed)
    #expect(Self.text(taken) == plain)
    #expect(inputs.map { $0.snapshot?.outcome } == Array(repeating: .replayed, count: 3))
    for (n, path) in paths.enumerated() {
      let digest = try #require(FileDigest.bytes(path: path))
      #expect(taken.files[Int32(n + 2)]?.digest?.sha256 == ParseSnapshot.hex(digest.sha256))
    }
    // Another input before them in the run (every index moved): still taken whole, each origin moved.
    let shifted = Self.inputs(paths, dir).map { input in
      var input = input
      input.index += 5
      return input
    }
    let moved = Self.read(shifted)
    #expect(moved.wholeSnapshot?.outcome == .replayed)
    #expect(
      Self.text(moved)
        == Self.text(
          Self.read(
            Self.inputs(paths, dir, snapshots: false).map { input in
              var input = input
              input.index += 5
              return input
            })))
    #expect(moved.files.keys.sorted() == [7, 8, 9])
    // The files in another order: built again (each file replayed from its own snapshot).
    let swapped = [inputs[1], inputs[0], inputs[2]].map { input in
      var input = input
      input.snapshot = StripeSnapshot(
        path: input.snapshot?.path ?? "", macKey: Self.key,
        context: [UInt8](repeating: UInt8(input.index - 2), count: 32), asOf: Self.asOf, fresh: nil)
      return input
    }
    #expect(
      Self.read(swapped).wholeSnapshot?.outcome
        == .parsed("the snapshot was made by another build or with other settings"))
    _ = Self.read(Self.inputs(paths, dir))
    // A line added to one file: built again, that file parsed, the others replayed.
    paths[2] = try dir.write(
      Self.files[2].name,
      (Self.files[2].lines + [#"{"object":"event","id":"evt_5","type":"invoice.paid","created":1795000000}"#])
        .joined(separator: "\n") + "\n")
    let grown = Self.text(Self.read(Self.inputs(paths, dir, snapshots: false)))
    inputs = Self.inputs(paths, dir)
    let rebuilt = Self.read(inputs)
    #expect(rebuilt.wholeSnapshot?.outcome == .parsed("the file changed"))
    #expect(inputs.map { $0.snapshot?.outcome } == [.replayed, .replayed, .parsed("the file changed")])
    #expect(Self.text(rebuilt) == grown)
    #expect(Self.text(Self.read(Self.inputs(paths, dir))) == grown)
    // One bit flipped in it, or another key: never trusted; the files' own snapshots are read.
    let whole = dir.path("snapshots/" + StripeReadSnapshot.fileName)
    var bytes = try #require(DurableFile.read(whole))
    bytes[bytes.count / 2] ^= 1
    try DurableFile.write(bytes, to: whole)
    inputs = Self.inputs(paths, dir)
    let flipped = Self.read(inputs)
    #expect(flipped.wholeSnapshot?.outcome.why?.contains("(HMAC) does not match") == true)
    #expect(inputs.map { $0.snapshot?.outcome } == Array(repeating: .replayed, count: 3))
    #expect(Self.text(flipped) == grown)
    let other = Self.read(Self.inputs(paths, dir, key: [UInt8](repeating: 9, count: 32)))
    #expect(other.wholeSnapshot?.outcome.why?.contains("(HMAC) does not match") == true)
    #expect(Self.text(other) == grown)
    // Without file snapshots there is no whole one.
    #expect(Self.read(Self.inputs(paths, dir, snapshots: false)).wholeSnapshot == nil)
  }
}

extension ParseSnapshot.Outcome {
  /// Why the file was parsed, if it was.
  var why: String? {
    if case .parsed(let why) = self { return why }
    return nil
  }
}
