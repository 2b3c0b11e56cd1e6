import Testing

@testable import StoreReconCore

@Suite struct PackedIDTests {
  static let samples = [
    "", "0", "7", "007", "2000000000000019", "9999999999999999999", "10000000000000000000",
    "GPA.1234-5678-9012-34567", "GPA.1234-5678-9012-34567..0", "GPA.1234-5678-9012-34567..12",
    "GPA.0000-0000-0000-00000..999999999", "GPA.1234-5678-9012-34567..1000000000",
    "GPA.1234-5678-9012-34567..01", "GPA.1234-5678-9012-34567..", "GPA.1234-5678-9012-3456",
    "GPA.1234-5678-9012-34567.5", "gpa.1234-5678-9012-34567", "GPA.1234-5678-9012-34567..3x",
    "jvraerblqtcdnrtndaplcfqk.AO-J1OLkRN4vKyfKpMd01nxePN5SqGIHjnozn5-gzI8D8V1i9j7XSx", "tokA", "u0000001",
    "é", "e\u{301}", "12345678901234567890123",
  ]

  @Test func everyTextRoundTrips() {
    let pool = TextPool()
    for text in Self.samples {
      let id = PackedID.intern(text, in: pool)
      #expect(id.string(pool: pool) == text, "\(text)")
      #expect(PackedID.find(text, in: pool) == id, "\(text)")
    }
  }

  @Test func compactIdsRoundTripAndStayCanonical() {
    let pool = TextPool()
    let extra = [
      "12345678901234567", "123456789012345678", "0000000000000000000", "GPA.1234-5678-9012-34567..29",
      "GPA.1234-5678-9012-34567..30", "GPA.1234-5678-9012-34567..31", "GPA.1234-5678-9012-34567..999",
    ]
    var seen: [CompactID: String] = [:]
    for text in Self.samples + extra {
      let compact = CompactID(PackedID.intern(text, in: pool), pooling: pool)
      #expect(compact.id.string(pool: pool) == text, "\(text)")
      #expect(CompactID.known(PackedID.intern(text, in: pool), in: pool) == compact, "\(text)")
      // Equal ids exactly for texts Swift calls equal ("é" and "e\u{301}" too, as the pool keeps them).
      if let other = seen[compact], other != text { Issue.record("\(text) and \(other) share a compact id") }
      seen[compact] = text
      // The text order survives the round trip.
      for (otherID, otherText) in seen {
        let order = PackedID.compare(compact.id, otherID.id, pool: pool)
        #expect(order == (text < otherText ? -1 : (text == otherText ? 0 : 1)), "\(text) vs \(otherText)")
      }
    }
    #expect(MemoryLayout<PackedRecord>.stride == 40)
    #expect(CompactID(PackedID.intern("12345678901234567", in: pool), pooling: pool).isPooled == false)
    #expect(CompactID(PackedID.intern("123456789012345678", in: pool), pooling: pool).isPooled)
    #expect(
      CompactID(PackedID.intern("GPA.1234-5678-9012-34567..30", in: pool), pooling: pool).isPooled == false)
    #expect(CompactID(PackedID.intern("GPA.1234-5678-9012-34567..31", in: pool), pooling: pool).isPooled)
    #expect(CompactID(PackedID.empty, pooling: pool) == .empty)
    // A long id nobody pooled can equal no record's id.
    #expect(CompactID.known(PackedID.intern("9999999999999999998", in: TextPool()), in: TextPool()) == nil)
  }

  @Test func packsDecimalAndOrderIdsCanonically() {
    let pool = TextPool()
    #expect(PackedID.intern("2000000000000019", in: pool).kind == .decimal)
    #expect(PackedID.intern("9999999999999999999", in: pool).kind == .decimal)
    #expect(PackedID.intern("10000000000000000000", in: pool).kind == .pooled)
    #expect(PackedID.intern("007", in: pool) != PackedID.intern("7", in: pool))
    let renewal = PackedID.intern("GPA.1234-5678-9012-34567..12", in: pool)
    #expect(renewal.kind == .playOrder && renewal.playRenewal == 12)
    #expect(renewal.playBase == PackedID.intern("GPA.1234-5678-9012-34567", in: pool))
    #expect(PackedID.intern("GPA.1234-5678-9012-34567", in: pool).playRenewal == nil)
    // Non-canonical renewals stay text, so equal texts always give equal ids.
    #expect(PackedID.intern("GPA.1234-5678-9012-34567..01", in: pool).kind == .pooled)
    #expect(PackedID.intern("GPA.1234-5678-9012-34567..1000000000", in: pool).kind == .pooled)
    #expect(pool.count == 3)
    #expect(PackedID.intern("", in: pool) == .empty)
    #expect(PackedID.absent.optionalString(pool: pool) == nil)
  }

  @Test func ordersAsStringsDo() {
    let pool = TextPool()
    let ids = Self.samples.map { PackedID.intern($0, in: pool) }
    for (i, a) in Self.samples.enumerated() {
      for (j, b) in Self.samples.enumerated() {
        let expected = a < b ? -1 : (a == b ? 0 : 1)
        #expect(PackedID.compare(ids[i], ids[j], pool: pool) == expected, "\(a) vs \(b)")
      }
    }
  }

  @Test func poolFindsEqualTextsAndGrows() {
    let pool = TextPool()
    var ids: [UInt32] = []
    for n in 0..<5000 { ids.append(pool.intern("text-\(n)")) }
    #expect(Set(ids).count == 5000)
    for n in stride(from: 0, to: 5000, by: 7) {
      #expect(pool.intern("text-\(n)") == ids[n])
      #expect(pool.string(ids[n]) == "text-\(n)")
    }
    #expect(pool.count == 5000)
    #expect(PackedID.find("missing", in: pool) == nil)
    // Canonically equivalent non-ASCII spellings are one text, as Swift strings are equal.
    #expect(pool.intern("é") == pool.intern("e\u{301}"))
  }

  @Test func indexMapsPackedIDs() {
    let pool = TextPool()
    var index = PackedIndex()
    for n in 0..<10_000 {
      let key = PackedID.intern(n % 3 == 0 ? "GPA.1234-5678-9012-\(10_000 + n)" : "key\(n)", in: pool)
      #expect(index.insertIfAbsent(key, UInt32(n)) == UInt32(n))
    }
    #expect(index.count == 10_000)
    for n in stride(from: 0, to: 10_000, by: 13) {
      let key = PackedID.intern(n % 3 == 0 ? "GPA.1234-5678-9012-\(10_000 + n)" : "key\(n)", in: pool)
      #expect(index[key] == UInt32(n))
      #expect(index.insertIfAbsent(key, 99) == UInt32(n))
    }
    index.set(PackedID.intern("key1", in: pool), 42)
    #expect(index[PackedID.intern("key1", in: pool)] == 42)
    #expect(index[PackedID.intern("nothing", in: pool)] == nil)
  }
}
