import StoreReconPlatform

extension LedgerBuilder {
  /// A record read again, as the build finds it: the one kept, the one left out, and why.
  struct RepeatedRecord {
    var kept: UInt32
    var dropped: UInt32
    var kind: RecordDuplicate.Kind
  }

  /// Leaves out the records read more than once: within each chain's records of one kind (`starts`:
  /// per slot, chain position × 3 + kind), two with the same transaction or order id are one record
  /// (the same id is never two charges of one chain). Compared on all cores, slot by slot; a slot holds
  /// a chain's few records, so no table of every id is kept. The records left out go to the end of the
  /// record order, outside every chain; ``duplicates`` lists them. Returns the slots' new starts (the
  /// same when nothing was read twice, the common case, which moves nothing).
  func dropRepeatedRecords(slotCount: Int, starts: [UInt32]) -> [UInt32] {
    let records = storage.records
    let order = storage.order
    let rare = storage.rare
    let found = Parallel.map(slotCount, .balanced(minimum: 100_000)) { range -> [RepeatedRecord] in
      var out: [RepeatedRecord] = []
      var seen: [(id: PackedID, kept: UInt32)] = []
      for slot in range {
        let lo = Int(starts[slot])
        let hi = Int(starts[slot + 1])
        if hi - lo >= 2 { LedgerBuilder.repeats(order[lo..<hi], records, rare, into: &out, seen: &seen) }
      }
      return out
    }
    let repeated = found.flatMap { $0 }
    defer { recordLine.removeAll() }
    guard !repeated.isEmpty else { return starts }
    var isDropped = [Bool](repeating: false, count: records.count)
    for r in repeated { isDropped[Int(r.dropped)] = true }
    var kept: [UInt32] = []
    kept.reserveCapacity(order.count)
    var newStarts = [UInt32](repeating: 0, count: slotCount + 1)
    for slot in 0..<slotCount {
      newStarts[slot] = UInt32(truncatingIfNeeded: kept.count)
      for k in Int(starts[slot])..<Int(starts[slot + 1]) where !isDropped[Int(order[k])] {
        kept.append(order[k])
      }
    }
    newStarts[slotCount] = UInt32(truncatingIfNeeded: kept.count)
    kept.append(contentsOf: repeated.map(\.dropped).sorted())
    storage.order = kept
    for r in repeated { duplicates.append(describe(r)) }
    return newStarts
  }

  /// The repeats among one slot's records (`numbers`, in arrival order): each record is compared with
  /// the one kept so far for its id. A slot of up to ``smallSlot`` records (nearly all: a chain's
  /// renewals of one kind) keeps its ids in `seen`, a list the caller reuses from slot to slot, and
  /// searches it; a larger one uses a table.
  static func repeats(
    _ numbers: ArraySlice<UInt32>, _ records: GrowableBuffer<PackedRecord>, _ rare: [Int: RareFields],
    into out: inout [RepeatedRecord], seen: inout [(id: PackedID, kept: UInt32)]
  ) {
    if numbers.count > smallSlot {
      repeatsByTable(numbers, records, rare, into: &out)
      return
    }
    seen.removeAll(keepingCapacity: true)
    for n in numbers {
      let id = records[Int(n)].transactionId
      guard id.kind != .empty else { continue }
      guard let i = seen.firstIndex(where: { $0.id == id }) else {
        seen.append((id, n))
        continue
      }
      let verdict = compare(seen[i].kept, n, records, rare)
      out.append(verdict)
      seen[i].kept = verdict.kept
    }
  }

  /// The most records a slot may have for ``repeats(_:_:_:into:seen:)`` to search a list.
  static let smallSlot = 64

  /// ``repeats(_:_:_:into:seen:)`` for a large slot, by a table of ids.
  static func repeatsByTable(
    _ numbers: ArraySlice<UInt32>, _ records: GrowableBuffer<PackedRecord>, _ rare: [Int: RareFields],
    into out: inout [RepeatedRecord]
  ) {
    var keptFor: [PackedID: UInt32] = [:]
    for n in numbers {
      let id = records[Int(n)].transactionId
      guard id.kind != .empty else { continue }
      guard let first = keptFor[id] else {
        keptFor[id] = n
        continue
      }
      let verdict = compare(first, n, records, rare)
      out.append(verdict)
      keptFor[id] = verdict.kept
    }
  }

  /// Record `a` (read first) against `b` with the same id: the same content is a duplicate (`a`
  /// kept); the same but for a later state (revoked, or revoked later; upgraded), or priced where the
  /// other is unpriced, supersedes the other; anything else is a conflict (`a` kept, `b` rejected).
  static func compare(
    _ a: UInt32, _ b: UInt32, _ records: GrowableBuffer<PackedRecord>, _ rare: [Int: RareFields]
  ) -> RepeatedRecord {
    let ra = records[Int(a)]
    let rb = records[Int(b)]
    let fa = ra.flags.contains(.rare) ? rare[Int(a)] : nil
    let fb = rb.flags.contains(.rare) ? rare[Int(b)] : nil
    let stateBits = PackedRecord.Flags.upgraded.rawValue | PackedRecord.Flags.rare.rawValue
    let sameBase =
      ra.at == rb.at && ra.amount == rb.amount && ra.extra == rb.extra && ra.variant == rb.variant
      && ra.currency == rb.currency && ra.flags.rawValue & ~stateBits == rb.flags.rawValue & ~stateBits
    if sameBase && ra.flags == rb.flags && fa == fb {
      return RepeatedRecord(kept: a, dropped: b, kind: .duplicate)
    }
    // The same purchase once without its price (an unpriced export: StoreKit testing, an older form)
    // and once with it: the priced one says more, so it supersedes the other, whichever came first.
    let unpricedA = ra.currency == 0 && ra.amount == 0
    let unpricedB = rb.currency == 0 && rb.amount == 0
    if unpricedA != unpricedB && ra.at == rb.at && ra.variant == rb.variant {
      return unpricedA
        ? RepeatedRecord(kept: b, dropped: a, kind: .superseded)
        : RepeatedRecord(kept: a, dropped: b, kind: .superseded)
    }
    var baseA = fa ?? RareFields()
    var baseB = fb ?? RareFields()
    (baseA.revokedAt, baseA.revocationType, baseA.revocationReason, baseA.revocationPercentMilli) = (
      nil, nil, nil, nil
    )
    (baseB.revokedAt, baseB.revocationType, baseB.revocationReason, baseB.revocationPercentMilli) = (
      nil, nil, nil, nil
    )
    baseA.revocationTypeUpper = nil
    baseB.revocationTypeUpper = nil
    func state(_ r: PackedRecord, _ f: RareFields?) -> (Int, Int64) {
      let revoked = f?.revokedAt
      return ((revoked != nil ? 2 : 0) + (r.flags.contains(.upgraded) ? 1 : 0), revoked?.ms ?? Int64.min)
    }
    let (sa, sb) = (state(ra, fa), state(rb, fb))
    guard sameBase && baseA == baseB && sa != sb else {
      return RepeatedRecord(kept: a, dropped: b, kind: .conflict)
    }
    return sb > sa
      ? RepeatedRecord(kept: b, dropped: a, kind: .superseded)
      : RepeatedRecord(kept: a, dropped: b, kind: .superseded)
  }

  /// The report's row of a repeated record: its store, id, kind of record, and where each was read.
  func describe(_ r: RepeatedRecord) -> RecordDuplicate {
    let record = storage.records[Int(r.kept)]
    let kind = ["charge", "refund", "void", "void"][Int(record.flags.rawValue & 3)]
    let store = storage.products.variants[Int(record.variant)].store
    let (keptInput, droppedInput) = (input(ofRecord: Int(r.kept)), input(ofRecord: Int(r.dropped)))
    return RecordDuplicate(
      kind: r.kind, store: store, id: record.transactionId.string(pool: storage.pool), record: kind,
      keptInput: keptInput, keptLine: Int(line(ofRecord: Int(r.kept))), droppedInput: droppedInput,
      droppedLine: Int(line(ofRecord: Int(r.dropped))))
  }

  /// The input record `n` was read from (-1: added before any ``beginInput(_:)``).
  func input(ofRecord n: Int) -> Int32 {
    var lo = 0
    var hi = inputStarts.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if inputStarts[mid].record <= n { lo = mid + 1 } else { hi = mid }
    }
    return lo == 0 ? -1 : inputStarts[lo - 1].input
  }

  /// The line record `n` was read from (0: not known).
  func line(ofRecord n: Int) -> UInt32 { n < recordLine.count ? recordLine[n] : 0 }
}
