import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconReports

/// The crediting pass cut into any number of parts gives the same readout, byte for byte.
@Suite struct ReadoutPartsTests {
  /// 48 users over both arms: App Store charges in USD, Play charges in EUR (some users have both, in
  /// either order), renewals, a refund, EUR rates only from 2026-09-20 (earlier EUR charges are gaps),
  /// users without a purchase, and ids that need quoting in CSV.
  static func world() -> (records: [StoreTransaction], credentials: [Credential], assignments: [Assignment]) {
    var records: [StoreTransaction] = []
    var credentials: [Credential] = []
    var assignments: [Assignment] = []
    for i in 0..<48 {
      let user = i % 7 == 3 ? "u,\(i)\"q" : "u\(100 + (i * 37) % 48)"
      assignments.append(Ex.assign(user, i % 2 == 0 ? "control" : "high", "2026-09-0\(1 + i % 3)T08:00:00Z"))
      if i % 5 != 4 {
        let key = "a\(i)"
        let product = i % 2 == 0 ? "com.acme.pro.monthly" : "com.acme.pro.monthly.hi"
        for m in 0..<(1 + i % 3) {
          records.append(
            Ex.apple(
              "\(key)-\(m)", key, "2026-\(["09", "10", "11"][m])-\(10 + i % 9)T10:00:00Z", product: product,
              price: 499 + Int64(i)))
        }
        credentials.append(Fx.cred(key: key, user: user))
      }
      if i % 3 == 0 {
        let order = "GPA.\(1000 + i)-1111-2222-33333"
        let start = Fx.at("2026-09-\(12 + i % 15)T09:00:00Z")
        records.append(Fx.playCharge(order, at: start, amount: 599 + Int64(i)))
        records.append(
          Fx.playCharge(order + "..0", at: BillingPeriod.oneMonth.advance(start), amount: 599 + Int64(i)))
        if i % 9 == 0 {
          records.append(Fx.playRefund(order + "..0", at: Fx.at("2026-11-20T00:00:00Z"), amount: 300))
        }
        credentials.append(Fx.cred(.play, key: PlayOrderId.base(order), user: user))
      }
    }
    return (records, credentials, assignments)
  }

  @Test func readoutIsTheSameForAnyNumberOfParts() throws {
    let (records, credentials, assignments) = Self.world()
    let ledger = Fx.ledger(records)
    let settings = ExperimentSettings(
      fx: FXRateBook(reporting: Fx.usd, rows: [Ex.rate("2026-09-20", "EUR", "1.0845")]), rounding: .halfEven)
    let users = ChainUsers(ledger: ledger, credentials: PackedCredentials(credentials))
    let assigned = AssignedUsers(
      experiment: Ex.experiment, assignments: assignments, asOf: ledger.asOf, dayOf: Ex.utcDay)
    func render(_ parts: Int) -> ([UInt8], [UInt8], [FXGap], [[DailyPoint]]) {
      let r = Readout.compute(
        Ex.experiment, assigned: assigned, users: users, ledger: ledger, settings: settings, dayOf: Ex.utcDay,
        creditParts: parts)
      return (
        ExperimentTables.armsCSV([r]), ExperimentTables.lineageCSV([r]), r.fxGaps, r.arms.map(\.series)
      )
    }
    let one = render(1)
    let lineage = String(decoding: one.1, as: UTF8.self)
    // The world is what it says: gaps, quoted users, mixed currencies, renewals.
    #expect(!one.2.isEmpty)
    #expect(lineage.contains("\"u,3\"\"q\""))
    #expect(lineage.split(separator: "\n").count > 60)
    #expect(String(decoding: one.0, as: UTF8.self).contains(",currency,EUR,"))
    for parts in [2, 3, 5, 64] {
      let other = render(parts)
      #expect(other.0 == one.0, "arms, \(parts) parts")
      #expect(other.1 == one.1, "lineage, \(parts) parts")
      #expect(other.2 == one.2, "gaps, \(parts) parts")
      #expect(other.3 == one.3, "series, \(parts) parts")
    }
  }
}
