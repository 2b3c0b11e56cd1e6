import Foundation
import Testing
import StoreReconCore
import StoreReconPlatform
import StoreReconReports
import StoreReconTestSupport

/// charges.csv and revenue_recognition_import.csv are written in pieces (they hold every charge of the
/// history): the pieces make exactly the file rendered whole, and the stream publishes it under its name
/// with the size and checksum of those bytes, or leaves nothing where it was not finished.
@Suite struct ChargeTablesStreamTests {
  static let usd = Currency.named("USD")!

  static func lines(_ count: Int) -> [ChargeLine] {
    (0..<count).map(line)
  }

  static func line(_ i: Int) -> ChargeLine {
    let refund = i % 7 == 0
    let kind: ChargeLine.Kind = refund ? .refund : .charge
    let store: Store = i % 2 == 0 ? .appStore : .play
    let hour = Int64(i) * 3_600_000
    let at = Instant(ms: 1_790_000_000_000 + hour)
    let start: Instant? = refund ? nil : at
    let end: Instant? = refund ? nil : Instant(ms: 1_792_000_000_000 + hour)
    return ChargeLine(
      kind: kind, store: store, chainKey: "chain-\(i / 3)", transactionId: "tx,\(i)", productId: "=pro",
      currency: usd, at: at, serviceStart: start, serviceEnd: end, amountMinor: 499 + Int64(i),
      proceedsMinor: 424, proceedsSource: .estimated, inRevenue: true, inRecognition: true)
  }

  @Test func thePiecesMakeTheWholeFile() {
    let lines = Self.lines(500)
    let day: (Instant) -> CivilDate = {
      CivilDate(daysSinceEpoch: $0.ms.floorDivided(by: Instant.msPerDay).0)
    }
    var pieces: [[UInt8]] = []
    ChargeTables.csv(lines, dayOf: day, piece: 1_000) { (piece: [UInt8]) throws(Never) in pieces.append(piece)
    }
    #expect(pieces.count > 10, "cut into pieces of about 1,000 bytes")
    #expect(pieces.dropLast().allSatisfy { $0.count >= 1_000 && $0.count < 1_400 })
    #expect(pieces.flatMap { $0 } == ChargeTables.csv(lines, dayOf: day))
    var imports: [[UInt8]] = []
    ChargeTables.importCSV(lines, piece: 1_000) { (piece: [UInt8]) throws(Never) in imports.append(piece) }
    #expect(imports.count > 5)
    #expect(imports.flatMap { $0 } == ChargeTables.importCSV(lines))
    // Quoting and the formula guard hold across pieces.
    let whole = String(decoding: ChargeTables.csv(lines, dayOf: day), as: UTF8.self)
    #expect(whole.contains("\"tx,7\"") && whole.contains("'=pro"))
  }

  @Test func aStreamPublishesItsBytesWithTheirChecksumOrLeavesNothing() throws {
    let dir = try TempDir()
    let path = dir.path("out/charges.csv")
    let stream = try DurableFile.Stream(path: path)
    let pieces: [[UInt8]] = [Array("kind,store\n".utf8), Array("charge,app_store\n".utf8), []]
    for piece in pieces { try stream.append(piece) }
    #expect(!FileManager.default.fileExists(atPath: path), "not under its name before it is finished")
    let (bytes, sha) = try stream.finish()
    let all = pieces.flatMap { $0 }
    #expect(DurableFile.read(path) == all)
    #expect(bytes == Int64(all.count) && sha == SHA256Digest.hex(of: all))
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path("out"))
    #expect(names == ["charges.csv"], "no temporary file left: \(names)")

    do {
      let dropped = try DurableFile.Stream(path: dir.path("out/dropped.csv"))
      try dropped.append(Array("half".utf8))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("out")) == ["charges.csv"])
  }
}
