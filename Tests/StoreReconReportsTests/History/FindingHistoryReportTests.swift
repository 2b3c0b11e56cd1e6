import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconReports

/// The run history's changes as StoreReconReports writes them (the comparison itself is checked in
/// StoreReconCoreTests).
struct FindingHistoryTests {
  static let d2 = CivilDate(year: 2026, month: 11, day: 29)

  @Test func changesCSVHasTheDocumentedColumns() {
    let f = Fx.finding(.refunded, chain: "1")
    let outcome = FindingHistory.compare(current: [f], date: Self.d2, previous: nil, firstSeen: [:])
    let text = String(decoding: ReportTables.changesCSV(outcome.changes), as: UTF8.self)
    let lines = text.split(separator: "\n")
    #expect(
      lines[0]
        == "state,finding_key,kind,reason,store,chain_key,user_id,product_id,currency,amount_minor,since")
    #expect(
      lines[1]
        == "new,\(f.key),free_entitlement,refunded,app_store,1,u1,com.acme.pro.monthly,USD,499,2026-11-29")
  }
}
