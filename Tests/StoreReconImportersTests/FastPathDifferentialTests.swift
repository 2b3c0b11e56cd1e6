import Foundation
import Testing
import StoreReconTestSupport

/// Every importer fast path against its full parser on seeded variants of real store lines (issue 14,
/// deliverable 2): permuted members, unknown and look-alike keys (nested too), other writers' spacing,
/// escapes in values and keys, long ids, every timestamp and number form, duplicate keys and broken
/// lines. The fast path may decline any of them; when it takes one, the full parser must accept it
/// and yield the same record in every field (``FastPathCheck``).
@Suite struct FastPathDifferentialTests {
  /// The mismatches among `verdicts`, with the variants that gave them.
  static func mismatches(_ variants: [LineVariants.Variant], _ verdicts: [FastPathCheck.Verdict]) -> [String]
  {
    zip(variants, verdicts).compactMap { variant, verdict in
      guard case .mismatch(let why) = verdict else { return nil }
      return "\(why)\n  edits: \(variant.edits)\n  line: \(variant.text)"
    }
  }

  @Test func variantsAreTheSameForTheSameSeed() {
    #expect(
      LineVariants.appStore(seed: 5, count: 50).map(\.bytes)
        == LineVariants.appStore(seed: 5, count: 50).map(\.bytes))
    #expect(
      LineVariants.appStore(seed: 5, count: 50).map(\.bytes)
        != LineVariants.appStore(seed: 6, count: 50).map(\.bytes))
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func appStoreFastPathAgreesWithTheFullParser(seed: UInt64) {
    let variants = LineVariants.appStore(seed: seed, count: 4000)
    let verdicts = variants.map { FastPathCheck.appStore($0.bytes) }
    let found = Self.mismatches(variants, verdicts)
    #expect(found.isEmpty, "\(found.count) mismatches, first: \(found.prefix(3).joined(separator: "\n"))")
    // Not vacuous: the fast path takes many variants and declines many.
    let accepted = verdicts.filter(\.accepted).count
    print("App Store fast path takes \(accepted) of \(variants.count) edited variants (seed \(seed))")
    #expect(accepted > variants.count / 5 && accepted < variants.count * 9 / 10)
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func playSubscriptionFastPathAgreesWithTheFullParser(seed: UInt64) {
    let variants = LineVariants.playSubscription(seed: seed, count: 2000)
    let verdicts = variants.map { FastPathCheck.playSubscription($0.bytes) }
    let found = Self.mismatches(variants, verdicts)
    #expect(found.isEmpty, "\(found.count) mismatches, first: \(found.prefix(3).joined(separator: "\n"))")
    let accepted = verdicts.filter(\.accepted).count
    print("subscriptionsv2 fast path takes \(accepted) of \(variants.count) edited variants (seed \(seed))")
    #expect(accepted > variants.count / 5 && accepted < variants.count * 9 / 10)
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func playSalesFastPathAgreesWithTheFullParser(seed: UInt64) {
    let report = LineVariants.playSalesReport(seed: seed, rows: 1500)
    let verdicts = FastPathCheck.playSales(report.file)
    let found = verdicts.compactMap { verdict -> String? in
      if case .mismatch(let why) = verdict { return why }
      return nil
    }
    #expect(found.isEmpty, "\(found.count) mismatches, first: \(found.prefix(3).joined(separator: "\n"))")
    let accepted = verdicts.filter(\.accepted).count
    #expect(verdicts.count > 1000 && accepted > verdicts.count / 5 && accepted < verdicts.count)
  }

  /// What lines share (chain keys, products, interned texts, the packing caches) comes out the same:
  /// many variants into one batch each way.
  @Test func manyLinesInOneBatchAgree() {
    let apple = LineVariants.appStore(seed: 31, count: 3000).map(\.bytes)
    #expect(FastPathCheck.appStoreBatch(apple) == nil)
    let play = LineVariants.playSubscription(seed: 31, count: 1500).map(\.bytes)
    #expect(FastPathCheck.playSubscriptionBatch(play) == nil)
    for seed in [31, 32] as [UInt64] {
      #expect(FastPathCheck.playSalesBatch(LineVariants.playSalesReport(seed: seed, rows: 1500).file) == nil)
    }
  }

  /// The chunked import of a varied sales report (fast path where it applies) gives what the CSV reader
  /// and the full row mapping give: records, rejects and counts.
  @Test(arguments: [7, 8] as [UInt64])
  func variedSalesReportsImportAsTheLineByLineReaderDoes(seed: UInt64) throws {
    let dir = try TempDir()
    let report = LineVariants.playSalesReport(seed: seed, rows: 800)
    let path = try dir.write("salesreport_202611.csv", String(decoding: report.file, as: UTF8.self))
    let expected = try ImportComparison.sequential([("sales", path)])
    #expect(try ImportComparison.packed([("sales", path)], chunkBytes: 4096, threads: 2) == expected)
  }

  /// On realistic shapes (every field, any member order, other writers' spacing, UUIDs and long opaque
  /// ids, every timestamp form) the fast paths take all lines: a real line off the fast path costs
  /// throughput (issue 14). The floor: every realistic App Store and Play line, and every realistic
  /// sales row (columns in any order, quoted titles with commas), since none needs anything unusual.
  @Test func fastPathsTakeRealisticShapes() {
    let apple = LineVariants.appStoreRealistic(seed: 11, count: 2000).map { FastPathCheck.appStore($0.bytes) }
    let play = LineVariants.playSubscriptionRealistic(seed: 11, count: 1000).map {
      FastPathCheck.playSubscription($0.bytes)
    }
    let sales = (0..<4).flatMap {
      FastPathCheck.playSales(LineVariants.playSalesReport(seed: 20 + $0, rows: 500, odd: false).file)
    }
    func share(_ verdicts: [FastPathCheck.Verdict]) -> Double {
      Double(verdicts.filter(\.accepted).count) / Double(max(verdicts.count, 1))
    }
    print(
      "fast-path share on realistic shapes: App Store \(share(apple)), subscriptionsv2 \(share(play)),"
        + " sales report \(share(sales))")
    #expect(!apple.contains { if case .mismatch = $0 { true } else { false } })
    #expect(share(apple) >= 0.99)
    #expect(share(play) >= 0.99)
    #expect(share(sales) >= 0.99)
  }
}
