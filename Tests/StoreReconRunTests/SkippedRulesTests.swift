import Testing
import StoreReconCore
import StoreReconReports
import StoreReconRun

/// Which rules an input that failed leaves out (docs/config.md#completeness).
struct SkippedRulesTests {
  static func failure(_ role: String, _ path: String = "f") -> SkippedRules.Failure {
    SkippedRules.failures(
      reports: [
        {
          var r = InputReport(role: role, path: path, rejectsFile: "")
          r.error = "broken"
          return r
        }()
      ], missing: [])[0]
  }

  @Test func nothingFailedNothingSkipped() {
    #expect(SkippedRules(config: RunConfig(baseDirectory: "/"), failures: []).isEmpty)
  }

  @Test func theEntitlementsLeaveOutEveryRuleThatReadsThem() {
    var config = RunConfig(baseDirectory: "/")
    config.credits = "app/credits.csv"
    let skipped = SkippedRules(config: config, failures: [Self.failure("app.entitlements", "app/e.csv")])
    #expect(
      skipped.skips.map(\.name) == [
        "free entitlements and orphaned charges", "duplicate claims", "double billing",
      ])
    #expect(skipped.skips.allSatisfy { $0.store == nil })
    #expect(
      skipped.skips[0].sentence
        == "free entitlements and orphaned charges not checked: app.entitlements app/e.csv could not be read (broken)"
    )
    #expect(skipped.names(role: "app.entitlements", path: "app/e.csv").count == 3)
    #expect(skipped.drops(kind: "free_entitlement", store: "play"))
    #expect(!skipped.drops(kind: "uncredited_purchase", store: "play"))
  }

  @Test func aStoreFeedLeavesOutThatStoresPart() {
    var config = RunConfig(baseDirectory: "/")
    config.credits = "app/credits.csv"
    let skipped = SkippedRules(config: config, failures: [Self.failure("play.voided")])
    #expect(skipped.drops(kind: "free_entitlement", store: "play"))
    #expect(!skipped.drops(kind: "free_entitlement", store: "app_store"))
    #expect(skipped.drops(kind: "orphan_credit", store: "play"))
    // Double billing compares the stores: every store's is left out.
    #expect(skipped.drops(kind: "double_billing", store: "app_store"))
    #expect(!skipped.dropsTieOut(of: .play), "no store reports configured")
    #expect(!skipped.dropsReadouts, "no experiments configured")
  }

  @Test func missingFilesCountToo() {
    let failures = SkippedRules.failures(
      reports: [], missing: [Completeness.Missing(role: "app.credentials", pattern: "app/c.csv")])
    let skipped = SkippedRules(config: RunConfig(baseDirectory: "/"), failures: failures)
    #expect(skipped.skips.first?.causes == ["app.credentials: no file matches 'app/c.csv'"])
  }
}
