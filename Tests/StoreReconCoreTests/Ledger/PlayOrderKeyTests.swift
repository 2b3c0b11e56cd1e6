import Testing

@testable import StoreReconCore

@Suite struct PlayOrderKeyTests {
  static let ids = [
    "GPA.3312-0412-8841-22019", "GPA.3312-0412-8841-22019..0", "GPA.3312-0412-8841-22019..2",
    "GPA.3312-0412-8841-22019..10", "GPA.3312-0412-8841-22019..01", "GPA.1000-0000-0000-00000",
    "2000000000000019", "19", "", "order-7f3c9a", "GPA.3312-0412-8841-2201", "gpa.3312-0412-8841-22019",
    "GPA.3312-0412-8841-22019 ", "Ördér-1",
  ]

  @Test func aKeyFromTheReportsTextEqualsTheKeyOfTheLedgersPackedID() {
    let pool = TextPool()
    for text in Self.ids {
      let fromLedger = PlayOrderKey(PackedID.intern(text, in: pool), pool: pool)
      let fromReport = PlayOrderKey(text)
      #expect(fromLedger == fromReport, "\(text)")
      #expect(fromLedger.hashValue == fromReport.hashValue, "\(text)")
      #expect(fromReport.string == text)
      var bytes = text
      #expect(bytes.withUTF8 { PlayOrderKey(bytes: $0) } == fromReport)
    }
  }

  /// Records keep ids in 8 bytes: a renewal past `..30` or a 19-digit id is pooled text there.
  @Test func aKeyFromARecordsCompactIDEqualsTheReportsKey() {
    let pool = TextPool()
    for text in Self.ids + [
      "GPA.3312-0412-8841-22019..31", "GPA.3312-0412-8841-22019..42", "1234567890123456789",
    ] {
      let compact = CompactID(PackedID.intern(text, in: pool), pooling: pool)
      #expect(PlayOrderKey(compact.id, pool: pool) == PlayOrderKey(text), "\(text)")
    }
  }

  @Test func keysOfDifferentTextsDiffer() {
    let keys = Set(Self.ids.map(PlayOrderKey.init))
    #expect(keys.count == Self.ids.count)
  }

  @Test func keysOrderAsTheirTextsDo() {
    let keys = Self.ids.map(PlayOrderKey.init)
    for a in keys {
      for b in keys {
        #expect(PlayOrderKey.less(a, b) == (a.string < b.string), "\(a.string) < \(b.string)")
      }
    }
  }
}
