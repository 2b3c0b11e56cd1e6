import Testing

@testable import StoreReconCore

/// The packed helpers the reconcile phase leans on for speed: each must give exactly what the plain
/// computation gives.
@Suite struct ReconcileLayoutTests {
  @Test func userCodesAreExactForShortASCIIIds() {
    let ids = ["u0000001", "u0000002", "u000001", "", "a", "A", "u00000010", "é", "ü0000001", "u0000001"]
    let codes = ids.map(UserCode.of)
    #expect(codes[0] == codes[9])
    #expect(Set(codes[0..<6]).count == 6)
    #expect(codes[6] == UserCode.inexact && codes[7] == UserCode.inexact && codes[8] == UserCode.inexact)
    // A native (heap) string codes as its small-string twin does.
    let long = String(repeating: "u0000001", count: 4)
    #expect(UserCode.of(String(long.prefix(8))) == codes[0])
  }

  @Test func decimalSortWordsMatchTheText() {
    let pool = TextPool()
    let texts = [
      "0", "7", "12", "0012", "2000000000000019", "20000000000000190", "9999999999999999999", "123456789",
      "1234567890123456", "00000000000000001",
    ]
    for text in texts {
      let key = PackedID.intern(text, in: pool)
      #expect(key.kind == .decimal)
      var high: UInt64 = 0
      var low: UInt64 = 0
      for (i, b) in text.utf8.prefix(16).enumerated() {
        if i < 8 {
          high |= UInt64(b) << (56 - 8 * UInt64(i))
        } else {
          low |= UInt64(b) << (56 - 8 * UInt64(i - 8))
        }
      }
      let entry = ChainSortEntry(key: key, space: .appStore, chain: 0, pool: pool)
      #expect(entry.high == high && entry.low == low, "\(text)")
      #expect((entry.flags & ChainSortEntry.long != 0) == (text.utf8.count > 16), "\(text)")
    }
  }

  @Test func chainsSitOnWholeCacheLines() {
    let table = AlignedChains(count: 3) { chains in
      for i in 0..<3 {
        chains[i] = ChainState(
          key: .pooled(UInt32(i)), startOffset: 0, purchaseCount: 0, refundCount: 0, voidCount: 0, status: -1,
          currentProduct: UInt32.max, supersededBy: -1, accountToken: 0, store: .play, flags: [],
          paidThrough: PackedRecord.none, originalPurchaseAt: PackedRecord.none)
      }
    }
    #expect(MemoryLayout<ChainState>.stride == 64)
    #expect(table.count == 3 && table[2].key == .pooled(2))
    #expect(table.isCacheLineAligned)
    #expect(table.map(\.key) == [.pooled(0), .pooled(1), .pooled(2)])
    table.removeLast(1)
    #expect(table.count == 2 && table.indices == 0..<2)
  }

  /// The sizes the packed types' comments state, and the field placements the prefetching reads rely
  /// on ("a record may span two cache lines: read both ends"): a layout change fails here first.
  @Test func packedLayoutsAreWhatTheirCommentsState() {
    func layout<T>(_ type: T.Type) -> [Int] {
      [MemoryLayout<T>.size, MemoryLayout<T>.stride, MemoryLayout<T>.alignment]
    }
    // [size, stride, alignment]
    #expect(layout(PackedRecord.self) == [40, 40, 8], "one record in 40 bytes")
    #expect(layout(ChainState.self) == [64, 64, 8], "one chain in 64 bytes, no padding: one cache line")
    #expect(layout(PackedID.self) == [12, 16, 8], "a packed id in 12 bytes")
    #expect(layout(CompactID.self) == [8, 8, 8], "a compact id in 8 bytes")
    #expect(layout(StatusRecord.self) == [64, 64, 8], "a Play resource in 64 bytes")
    #expect(layout(PackedEntitlements.Row.self)[1] == 72, "an entitlement row of 72 bytes")
    #expect(layout(PackedCredentials.Row.self)[1] == 40, "a credential row of 40 bytes")
    #expect(layout(CreditedCharges.Packed.self) == [72, 72, 8], "a lineage row in 72 bytes")
    #expect(layout(BuilderChain.self)[1] == 56, "a builder chain in 56 bytes, within one cache line")
    #expect(PackedIndex.slotStride == 16, "a PackedIndex slot in 16 bytes")
    #expect(MemoryLayout<UInt32>.stride == 4, "a ChainKeyIndex slot in 4 bytes")
    // Prefetching reads a record's first and last fields, a resource's first and one in its last 16
    // bytes: whatever 16-byte-aligned place an element has in an array, those touch each line it spans.
    #expect(MemoryLayout<PackedRecord>.offset(of: \PackedRecord.at) == 0)
    #expect(MemoryLayout<PackedRecord>.offset(of: \PackedRecord.flags) == MemoryLayout<PackedRecord>.size - 2)
    #expect(MemoryLayout<StatusRecord>.offset(of: \StatusRecord.at) == 0)
    #expect(
      (MemoryLayout<StatusRecord>.offset(of: \StatusRecord.token) ?? 0) >= MemoryLayout<StatusRecord>.size
        - 16)
    // The key, which every look-up compares, opens a chain's cache line.
    #expect(MemoryLayout<ChainState>.offset(of: \ChainState.key) == 0)
  }

  @Test func revenueTableAddsUpPerKey() {
    var table = RevenueSumsByKey()
    let day = CivilDate(year: 2026, month: 11, day: 29)
    for n in 0..<5000 {
      table.add(CivilDate(year: 2026, month: 1 + n % 12, day: 1 + n % 28), n % 3, UInt32(n % 7), 5) {
        $0.charges += 1
      }
    }
    table.add(day, 1, 3, 5) { $0.grossMinor += 100 }
    table.add(day, 1, 3, 5) { $0.grossMinor += 23 }
    #expect(table.entries.reduce(0) { $0 + $1.sums.charges } == 5000)
    let found = table.entries.filter { $0.day == day && $0.slot == 1 && $0.product == 3 && $0.currency == 5 }
    #expect(found.count == 1 && found.first?.sums.grossMinor == 123)
  }
}
