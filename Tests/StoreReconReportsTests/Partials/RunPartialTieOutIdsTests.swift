import Testing

@testable import StoreReconCore
@testable import StoreReconReports

/// A tie-out cell's feed transactions in partials (docs/partitions.md): written, read back, and merged to
/// the smallest ids of all partitions with their counts added.
@Suite struct RunPartialTieOutIdsTests {
  static func partial(_ i: Int, ids: [String]) -> RunPartial {
    var p = RunPartialTests.sample(i, 2)
    var set = TieOutIds()
    for id in ids { set.add(id) }
    p.tieOut.cells[0].ids = set
    return p
  }

  @Test func idsRoundTripThroughTheText() throws {
    let p = Self.partial(0, ids: (0..<25).map { "GPA.0000-0000-0000-000\($0 + 10)" })
    let parsed = try RunPartial(parsing: p.rendered())
    #expect(parsed == p)
    #expect(parsed.tieOut.cells[0].ids.count == 25 && parsed.tieOut.cells[0].ids.shown.count == 20)
  }

  @Test func mergedIdsAreTheSmallestOfAllAndTheirNumber() throws {
    let merged = try RunPartial.merged([
      Self.partial(1, ids: ["b2", "b4", "a9"]), Self.partial(0, ids: ["a1", "c3"]),
    ])
    #expect(merged.tieOut.cells[0].ids.shown == ["a1", "a9", "b2", "b4", "c3"])
    #expect(merged.tieOut.cells[0].ids.count == 5)
  }
}
