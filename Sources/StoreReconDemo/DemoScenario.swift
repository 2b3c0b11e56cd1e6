import StoreReconCore

/// A special user of the demo world: a planted problem docs/rules.md must report, or a trap it must not.
enum DemoScenario: Int, CaseIterable, Sendable {
  // Planted problems.
  case appleUnclaimed, playUnclaimed
  case appleLockedOut, playLockedOut
  case appleNoStoreRecord, playNoStoreRecord
  case appleSandbox, playTestPurchase
  case appleRefundFull, appleFamilyRevoke, playRefundRow, playVoided
  case playSuperseded
  case appleStoreExpired, playStoreExpired
  case appleOverextendedOpenEnded, appleOverextendedMonths, playOverextended
  case appleProductMismatchYearly, appleProductMismatchLifetime, playProductMismatch
  case appleDuplicateClaim, playDuplicateClaim
  case appleCreditsMissing, appleCreditsExtra
  case billingAcrossStores, playUpgradeLeftRenewing
  // Traps: situations that look suspicious but are not findings.
  case appleOldRefund, appleOldProratedRefund, playOldRefund, playOldVoid
  case appleUpgrade, playUpgradeClean
  case appleExactBound, playExactBound
  case playPending
  case appleSandboxUnclaimed, playTestUnclaimed
  case appleFamilySharedClean
  case appleBillingGrace
  case goodwillOnly, promoOnly
  case playSalesOnly
  case appleTrialConverted, appleTrialExpired, playTrialConverted, playTrialExpired
  case appleFamilyMemberOwnPlan
  case appleReportDayBoundary
  // Monthly payments with a 12-month commitment (docs/rules.md#commitment-plans): two planted problems
  // (the current month refunded; access kept past the month paid, which has no grace), three traps
  // (paid month by month, Apple retrying, an earlier month refunded).
  case appleCommitmentRefunded, appleCommitmentNoGrace
  case appleCommitmentPaid, appleCommitmentRetry, appleCommitmentOldRefund
  // Refunds one source shows (docs/rules.md#every-source-of-a-refund): four planted problems (a Play
  // lifetime unlock refunded only in the earnings report, one only by a sales `Refund` row, a Play
  // subscription only voided, an App Store refund only the app's log of REFUND notifications knows)
  // and a trap (an App Store refund Apple reversed).
  case playEarningsRefundOnly, playSalesRefundOnly, playVoidOnly, appleRefundNoticeOnly
  case appleRefundReversed
  // Play installments base plans (docs/rules.md#commitment-plans): two planted problems (the current
  // installment refunded; the entitlement granted to the commitment's end), three traps (paid month by
  // month, Play retrying on account hold, an earlier installment refunded).
  case playInstallmentsRefunded, playInstallmentsWholeYear
  case playInstallmentsPaid, playInstallmentsOnHold, playInstallmentsOldRefund

  /// The store whose data the scenario builds (goodwill and promo grants have none; they use one
  /// store's timestamp precision).
  var store: Store {
    switch self {
    case .playUnclaimed, .playLockedOut, .playNoStoreRecord, .playTestPurchase, .playRefundRow, .playVoided,
      .playSuperseded, .playStoreExpired, .playOverextended, .playProductMismatch, .playDuplicateClaim,
      .playOldRefund, .playOldVoid, .playUpgradeClean, .playExactBound, .playPending, .playTestUnclaimed,
      .playSalesOnly, .playTrialConverted, .playTrialExpired, .promoOnly, .playUpgradeLeftRenewing,
      .playEarningsRefundOnly, .playSalesRefundOnly, .playVoidOnly, .playInstallmentsRefunded,
      .playInstallmentsWholeYear, .playInstallmentsPaid, .playInstallmentsOnHold, .playInstallmentsOldRefund:
      return .play
    default:
      return .appStore
    }
  }

  /// Does this scenario plant a finding (as opposed to being a trap)?
  var isPlanted: Bool {
    rawValue <= DemoScenario.playUpgradeLeftRenewing.rawValue || self == .appleCommitmentRefunded
      || self == .appleCommitmentNoGrace || (isOneSourceRefund && self != .appleRefundReversed)
      || self == .playInstallmentsRefunded || self == .playInstallmentsWholeYear
  }

  /// Users the scenario occupies: a duplicate claim needs the owner and a second claimer.
  var users: Int { self == .appleDuplicateClaim || self == .playDuplicateClaim ? 2 : 1 }

  /// How many times each scenario occurs for `users` users: about one per 1000 users, at least 2.
  static func count(forUsers users: Int) -> Int { max(2, users / 1000) }

  /// How many times this scenario occurs for `users` users: ``count(forUsers:)``, except that the
  /// commitment-plan and installments scenarios need 1,000 users (so that smaller worlds stay as they
  /// were), and the one-source refunds need 1,000 users and the classic world (`classic`: the one with
  /// the app's notification log and the classic store files).
  func count(forUsers users: Int, classic: Bool = true) -> Int {
    if (isCommitment || isInstallments) && users < 1000 { return 0 }
    if isOneSourceRefund && (users < 1000 || !classic) { return 0 }
    return DemoScenario.count(forUsers: users)
  }

  /// A scenario of an App Store commitment plan.
  var isCommitment: Bool {
    (DemoScenario.appleCommitmentRefunded.rawValue...DemoScenario.appleCommitmentOldRefund.rawValue)
      .contains(rawValue)
  }

  /// A scenario of a refund one source shows (or, the trap, a refund reversed).
  var isOneSourceRefund: Bool {
    (DemoScenario.playEarningsRefundOnly.rawValue...DemoScenario.appleRefundReversed.rawValue).contains(
      rawValue)
  }

  /// A scenario of a Play installments base plan.
  var isInstallments: Bool {
    (DemoScenario.playInstallmentsRefunded.rawValue...DemoScenario.playInstallmentsOldRefund.rawValue)
      .contains(rawValue)
  }
}
