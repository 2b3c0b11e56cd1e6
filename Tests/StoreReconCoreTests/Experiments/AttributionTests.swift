import Testing
import StoreReconTestSupport

/// Which chain counts for which arm: docs/reports.md#who-and-what-is-credited and docs/rules.md#decisions-where-the-design-is-silent.
@Suite struct AttributionTests {
  @Test func chainBoughtBeforeTheAssignmentIsNotCreditedButCounted() {
    let r = Ex.readout(
      [Ex.apple("1", "1", "2026-09-10T10:00:00Z"), Ex.apple("2", "1", "2026-10-10T10:00:00Z")],
      credentials: [Fx.cred(key: "1", user: "u1")],
      assignments: [Ex.assign("u1", "control", "2026-09-12T00:00:00Z")])
    #expect(r.lineage.isEmpty)
    #expect(r.arms[0].chainsAssignedAfterPurchase == 1)
    #expect(r.arms[0].reporting.assigned == 1)
    #expect(r.arms[0].reporting.paidConversions == 0)
    #expect(r.arms[0].reporting.grossMinor == 0)
  }

  @Test func assignmentAtThePurchaseInstantIsCredited() {
    let r = Ex.readout(
      [Ex.apple("1", "1", "2026-09-10T10:00:00Z")], credentials: [Fx.cred(key: "1", user: "u1")],
      assignments: [Ex.assign("u1", "high", "2026-09-10T10:00:00Z")])
    #expect(r.lineage.map(\.armId) == ["high"])
    #expect(r.arms[1].reporting.paidConversions == 1)
    #expect(r.arms[1].chainsAssignedAfterPurchase == 0)
  }

  @Test func upgradeInsideAnAppleChainIsARenewalNotASecondConversion() {
    let r = Ex.readout(
      [
        Ex.apple("10", "10", "2026-09-05T08:00:00Z", upgraded: true),
        Ex.apple("11", "10", "2026-09-20T08:00:00Z", product: "com.acme.pro.yearly", price: 3999),
      ],
      credentials: [Fx.cred(key: "10", user: "u1")],
      assignments: [Ex.assign("u1", "control", "2026-09-01T12:00:00Z")])
    #expect(r.lineage.map(\.transactionId) == ["10", "11"])
    #expect(r.lineage.map(\.renewalNumber) == [0, 1])
    let row = r.arms[0].reporting
    #expect(row.paidConversions == 1)
    #expect(row.renewals == 1)
    #expect(row.grossMinor == 499 + 3999)
    #expect(row.refunds == 0)  // the upgrade's revocation is not a refund
  }

  @Test func linkedPlayChainInheritsTheArmOfTheOriginalPurchase() {
    // The old chain (token A) bought on 09-03 by u2, assigned on 09-02; upgraded on 10-20 to token B,
    // whose resource names A. Only A has a credential; B still counts for u2's arm, as a renewal.
    var oldCharge = Fx.playCharge("GPA.1111-1111-1111-11111", at: Fx.at("2026-09-03T00:00:00Z"))
    oldCharge.purchaseToken = "tokA"
    let oldStatus = Fx.playStatus(
      token: "tokA", latestOrder: "GPA.1111-1111-1111-11111", start: Fx.at("2026-09-03T00:00:00Z"),
      expiry: Fx.at("2026-10-20T00:00:00Z"))
    var newCharge = Fx.playCharge(
      "GPA.2222-2222-2222-22222", at: Fx.at("2026-10-20T00:00:00Z"), product: "pro:monthly-hi", amount: 699,
      tax: 112)
    newCharge.purchaseToken = "tokB"
    let newStatus = Fx.playStatus(
      token: "tokB", latestOrder: "GPA.2222-2222-2222-22222", start: Fx.at("2026-10-20T00:00:00Z"),
      expiry: Fx.at("2026-12-20T00:00:00Z"), product: "pro:monthly-hi", linked: "tokA")
    let records = [oldCharge, oldStatus, newCharge, newStatus]
    let r = Ex.readout(
      records, credentials: [Fx.cred(.play, key: "tokA", user: "u2")],
      assignments: [Ex.assign("u2", "control", "2026-09-02T00:00:00Z")],
      fx: [Ex.rate("2026-01-01", "EUR", "1.0845")])
    #expect(r.lineage.map(\.chainKey) == ["tokA", "tokB"])
    #expect(r.lineage.map(\.renewalNumber) == [0, 1])
    #expect(r.lineage.allSatisfy { $0.armId == "control" && $0.userId == "u2" })
    #expect(r.arms[0].reporting.paidConversions == 1)
    #expect(r.arms[0].reporting.renewals == 1)
    // The linked chain sells the high arm's product: a sign of leakage, counted.
    #expect(r.arms[0].chainsOfOtherArmsProducts == 1)

    // Assigned after the old chain's purchase: neither chain is credited, both are counted.
    let late = Ex.readout(
      records, credentials: [Fx.cred(.play, key: "tokA", user: "u2")],
      assignments: [Ex.assign("u2", "control", "2026-09-05T00:00:00Z")],
      fx: [Ex.rate("2026-01-01", "EUR", "1.0845")])
    #expect(late.lineage.isEmpty)
    #expect(late.arms[0].chainsAssignedAfterPurchase == 2)
  }

  @Test func playTrialStartsAtTheResourceStartNotAtTheFirstCharge() {
    // Trial from 09-03 (resource startTime), first charged order ..0 on 09-10; assigned on 09-05,
    // during the trial: the purchase began before the assignment, so it is not credited.
    var charge = Fx.playCharge("GPA.3333-3333-3333-33333..0", at: Fx.at("2026-09-10T00:00:00Z"))
    charge.purchaseToken = "tokT"
    let status = Fx.playStatus(
      token: "tokT", latestOrder: "GPA.3333-3333-3333-33333..0", start: Fx.at("2026-09-03T00:00:00Z"),
      expiry: Fx.at("2026-12-10T00:00:00Z"))
    let during = Ex.readout(
      [charge, status], credentials: [Fx.cred(.play, key: "tokT", user: "u3")],
      assignments: [Ex.assign("u3", "control", "2026-09-05T00:00:00Z")])
    #expect(during.lineage.isEmpty && during.arms[0].chainsAssignedAfterPurchase == 1)
    let before = Ex.readout(
      [charge, status], credentials: [Fx.cred(.play, key: "tokT", user: "u3")],
      assignments: [Ex.assign("u3", "control", "2026-09-02T00:00:00Z")],
      fx: [Ex.rate("2026-01-01", "EUR", "1.08")])
    #expect(before.arms[0].reporting.trials == 1)
    #expect(before.arms[0].reporting.trialConversions == 1)
    #expect(before.arms[0].reporting.paidConversions == 1)
  }

  @Test func renewalsAfterTheExperimentEndedAreStillCredited() {
    let r = Ex.readout(
      [
        Ex.apple("1", "1", "2026-09-10T10:00:00Z"), Ex.apple("2", "1", "2026-10-10T10:00:00Z"),
        Ex.apple("3", "1", "2026-11-10T10:00:00Z"),
      ],
      credentials: [Fx.cred(key: "1", user: "u1")],
      assignments: [Ex.assign("u1", "control", "2026-09-09T00:00:00Z")])
    #expect(r.lineage.map(\.renewalNumber) == [0, 1, 2])
    #expect(r.arms[0].reporting.renewals == 2)
    #expect(r.arms[0].renewalsByNumber == [1, 1, 1])
  }

  @Test func sandboxAndFamilySharedChainsNeverCount() {
    let r = Ex.readout(
      [
        Ex.apple("1", "1", "2026-09-10T10:00:00Z", sandbox: true),
        Ex.apple("2", "2", "2026-09-11T10:00:00Z", family: true),
        Ex.apple("3", "3", "2026-09-12T10:00:00Z"),
      ],
      credentials: [
        Fx.cred(key: "1", user: "u1"), Fx.cred(key: "2", user: "u1"), Fx.cred(key: "3", user: "u1"),
      ],
      assignments: [Ex.assign("u1", "control", "2026-09-09T00:00:00Z")])
    #expect(r.lineage.map(\.chainKey) == ["3"])
    #expect(r.arms[0].chainsExcluded == 2)
    #expect(r.arms[0].reporting.grossMinor == 499)
  }

  @Test func userWithoutCredentialIsFoundThroughTheAccountTokenOrNotAtAll() {
    var play = Fx.playCharge("GPA.4444-4444-4444-44444", at: Fx.at("2026-09-12T00:00:00Z"))
    play.purchaseToken = "tokP"
    var status = Fx.playStatus(
      token: "tokP", latestOrder: "GPA.4444-4444-4444-44444", start: Fx.at("2026-09-12T00:00:00Z"),
      expiry: Fx.at("2026-12-12T00:00:00Z"))
    status.accountToken = "u5"
    let uuid = "6f1c2e2a-6d0b-4f57-9a35-0c6a4f7f8b11"
    let r = Ex.readout(
      [
        play, status,
        // Apple writes the UUID the app set; the app's user id is that UUID in upper case here.
        Ex.apple("7", "7", "2026-09-13T00:00:00Z", token: uuid),
        // A token that names nobody assigned, and a chain with no token: not attributed.
        Ex.apple("8", "8", "2026-09-14T00:00:00Z", token: "someone-else"),
        Ex.apple("9", "9", "2026-09-15T00:00:00Z"),
        // A credential wins over the token: u7's chain claims token u5, but u7 is not assigned.
        Ex.apple("20", "20", "2026-09-16T00:00:00Z", token: "u5"),
      ],
      credentials: [Fx.cred(key: "20", user: "u7")],
      assignments: [
        Ex.assign("u5", "high", "2026-09-10T00:00:00Z"),
        Ex.assign(uuid.uppercased(), "control", "2026-09-10T00:00:00Z"),
      ],
      fx: [Ex.rate("2026-09-01", "EUR", "1.1")])
    #expect(r.lineage.map(\.chainKey).sorted() == ["7", "tokP"])
    #expect(r.lineage.first { $0.chainKey == "7" }?.userId == uuid.uppercased())
    #expect(r.lineage.first { $0.chainKey == "tokP" }?.armId == "high")
  }

  @Test func productOfAnotherArmIsCreditedAndCounted() {
    let r = Ex.readout(
      [Ex.apple("1", "1", "2026-09-10T10:00:00Z", product: "com.acme.pro.monthly.hi", price: 699)],
      credentials: [Fx.cred(key: "1", user: "u1")],
      assignments: [Ex.assign("u1", "control", "2026-09-09T00:00:00Z")])
    #expect(r.arms[0].reporting.grossMinor == 699)
    #expect(r.arms[0].chainsOfOtherArmsProducts == 1)
    #expect(r.arms[1].chainsOfOtherArmsProducts == 0)
  }

  @Test func firstValidAssignmentIsTheArmAndTheRestAreCounted() {
    let r = Ex.readout(
      [Ex.apple("1", "1", "2026-09-20T10:00:00Z")], credentials: [Fx.cred(key: "1", user: "u1")],
      assignments: [
        Ex.assign("u1", "high", "2026-09-10T00:00:00Z"),
        Ex.assign("u1", "control", "2026-09-11T00:00:00Z"),  // reassigned: ignored, counted
        Ex.assign("u1", "high", "2026-09-12T00:00:00Z"),  // repeated: ignored, counted
        Ex.assign("u2", "control", "2026-08-31T23:59:59Z"),  // before enrolment
        Ex.assign("u3", "control", "2026-10-16T00:00:00Z"),  // after enrolment
        Ex.assign("u4", "medium", "2026-09-10T00:00:00Z"),  // no such arm
        Ex.assign("u5", "control", "2026-09-10T00:00:00Z", experiment: "other"),  // another experiment
        Ex.assign("u6", "control", "2026-10-15T23:59:59Z"),  // last enrolment day
      ])
    #expect(r.arms.map(\.reporting.assigned) == [1, 1])
    #expect(r.lineage.map(\.armId) == ["high"])
    #expect(r.assignmentsOutsideWindow == 2)
    #expect(r.assignmentsToUnknownArms == 1)
    #expect(r.repeatedAssignments == 2)
    #expect(r.usersReassigned == 1)
  }

  @Test func refundedChargeKeepsTheConversionAndLosesItsProceeds() {
    let r = Ex.readout(
      [
        Ex.apple("1", "1", "2026-09-10T10:00:00Z"),
        Ex.apple("2", "1", "2026-10-10T10:00:00Z", revokedAt: "2026-10-12T00:00:00Z"),
      ],
      credentials: [Fx.cred(key: "1", user: "u1")],
      assignments: [Ex.assign("u1", "control", "2026-09-09T00:00:00Z")])
    let row = r.arms[0].reporting
    #expect(row.paidConversions == 1)
    #expect(row.refunds == 1 && row.refundsMinor == 499)
    #expect(row.grossMinor == 998)
    // 499 − 30 % fee (149.7 → 150) = 349 for the kept charge; the refunded one keeps nothing.
    #expect(row.proceedsMinor == 349)
    #expect(r.lineage.map(\.proceedsMinor) == [349, 0])
  }
}
