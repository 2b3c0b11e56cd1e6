package import StoreReconPlatform
package import StoreReconCore
import StoreReconReports

/// The manifest's experiment parts: the fee options and, per readout, its arms, what was not credited
/// and every FX gap.
extension Manifest {
  package static func fees(_ fees: FeeSchedule) -> JSONText {
    .object([
      ("appStoreStandardBp", .int(fees.appStoreStandardBp)),
      ("appStoreSmallBusiness", .bool(fees.appStoreSmallBusiness)),
      ("appStoreSmallBusinessBp", .int(fees.appStoreSmallBusinessBp)),
      ("appStoreAfterFirstYearBp", .int(fees.appStoreAfterFirstYearBp)),
      ("playSubscriptionBp", .int(fees.playSubscriptionBp)), ("playOneTimeBp", .int(fees.playOneTimeBp)),
    ])
  }

  package static func experiment(_ r: Readout) -> JSONText {
    let e = r.experiment
    let arms: [JSONText] = r.arms.map { a in
      .object([
        ("id", .string(a.arm.id)), ("weight", .int(a.arm.weight)),
        ("products", .array(a.arm.products.map { .string($0.description) })),
        ("assigned", .int(Int64(a.reporting.assigned))), ("verdict", .string(a.verdict.rawValue)),
        ("chainsAssignedAfterPurchase", .int(Int64(a.chainsAssignedAfterPurchase))),
        ("chainsExcluded", .int(Int64(a.chainsExcluded))),
        ("chainsOfOtherArmsProducts", .int(Int64(a.chainsOfOtherArmsProducts))),
      ])
    }
    let gaps: [JSONText] = r.fxGaps.map { g in
      .object([
        ("currency", .string(g.currency.code)), ("day", .string(g.day.description)),
        ("store", .string(g.store.rawValue)), ("chainKey", .string(g.chainKey)),
        ("transactionId", .string(g.transactionId)),
      ])
    }
    return .object([
      ("id", .string(e.id)), ("enrollStart", .string(e.enrollStart.description)),
      ("enrollEnd", .string(e.enrollEnd.description)),
      ("maturityThreshold", .string(ExperimentTables.share(e.maturityThreshold))),
      (
        "bootstrap",
        .object([
          ("iterations", .int(Int64(e.bootstrap.iterations))), ("seed", .string(String(e.bootstrap.seed))),
        ])
      ),
      ("arms", .array(arms)),
      ("creditedCharges", .int(Int64(r.lineage.count))),
      ("assignmentsOutsideWindow", .int(Int64(r.assignmentsOutsideWindow))),
      ("assignmentsToUnknownArms", .int(Int64(r.assignmentsToUnknownArms))),
      ("repeatedAssignments", .int(Int64(r.repeatedAssignments))),
      ("usersReassigned", .int(Int64(r.usersReassigned))),
      ("fxGaps", .int(Int64(r.fxGaps.count))),
      ("fxGapCharges", .array(gaps)),
    ])
  }
}
