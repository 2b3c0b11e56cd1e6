import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconReports

/// `experiment_lineage.csv` written from packed rows is exactly what ``CSVWriter`` writes for the
/// unpacked rows.
@Suite struct LineageCSVTests {
  static func reference(_ readouts: [Readout]) -> [UInt8] {
    var csv = CSVWriter(header: ExperimentTables.lineageHeader)
    for readout in readouts {
      for row in readout.lineage {
        csv.row([
          row.experimentId, row.armId, row.userId, row.store.rawValue, row.chainKey, row.transactionId,
          String(row.renewalNumber), row.chargedAt.description, row.currency.code, String(row.grossMinor),
          String(row.proceedsMinor), row.reportingMinor.map { String($0) } ?? "",
        ])
      }
    }
    return csv.bytes
  }

  @Test func readoutRowsAreWrittenAsCSVWriterWritesThem() {
    let (records, credentials, assignments) = ReadoutPartsTests.world()
    let r = Ex.readout(
      records, credentials: credentials, assignments: assignments,
      fx: [Ex.rate("2026-09-20", "EUR", "1.0845")])
    #expect(r.lineage.count > 60)
    #expect(ExperimentTables.lineageCSV([r]) == Self.reference([r]))
  }

  @Test func packedRowsOfEveryKindInSeveralSegments() {
    // Ids of every kind (decimal, Play order ids with and without renewals, pooled text needing quotes,
    // a pooled id longer than the writer's block, empty), extreme amounts and instants, two segments.
    let pool = TextPool()
    let long = PackedID.intern(String(repeating: "x,\"y", count: 9_000), in: pool)
    let texts = [
      "2000000000000019", "GPA.1234-5678-9012-34567", "GPA.1234-5678-9012-34567..12", "tok,en\"1",
      "plain-token",
      "", "0", "日本,語",
    ]
    let ids = texts.map { PackedID.intern($0, in: pool) }
    let instants: [Int64] = [
      0, -1, 1_790_000_123_456, 253_402_300_799_999, 253_402_300_800_000, -62_135_596_800_001,
    ]
    let amounts: [Int64] = [0, -1, 499, Int64.max, Int64.min, -1_000_000_007]
    let segments = (0..<2).map { _ in GrowableBuffer<CreditedCharges.Packed>() }
    for i in 0..<3000 {
      segments[i < 1300 ? 0 : 1].append(
        CreditedCharges.Packed(
          chain: i == 5 ? long : ids[i % ids.count], transaction: ids[(i / 3) % ids.count],
          user: UInt32(i % 3),
          charged: instants[i % instants.count],
          gross: amounts[i % amounts.count], proceeds: amounts[(i + 1) % amounts.count],
          reporting: i % 4 == 0 ? Int64.min : amounts[(i + 2) % amounts.count], renewal: UInt32(i % 13),
          currency: UInt16(Currency.named(["USD", "EUR", "JPY", "KWD"][i % 4])?.tableIndex ?? 0),
          arm: UInt8(i % 2), store: UInt8(i % 3)))
    }
    let storage = CreditedCharges.Storage(
      experimentId: "exp,1", armIds: ["control", "hi\"gh"], users: ["u1", "u,2", "u\"3"], pool: pool,
      segments: segments)
    var readout = Ex.readout([], assignments: [])
    readout.lineage = CreditedCharges(storage: storage)
    #expect(readout.lineage.count == 3000)
    #expect(readout.lineage[1300].userId == "u,2")
    let bytes = ExperimentTables.lineageCSV([readout, readout])
    #expect(bytes == Self.reference([readout, readout]))
    #expect(bytes.count > 2 * 3000 * 100)
  }
}
