/// What sources outside the transaction feed say about refunds: a Google Play earnings report's
/// `Charge refund` rows, and the App Store's REFUND and REFUND_REVERSED notifications (the app's log
/// and Apple's notification history). The ledger reads them beside the feed's own refunds
/// (docs/rules.md#free_entitlementrefunded): a charge is refunded when any source says so, at the
/// earliest instant a source gives, and a reversal later than the refund undoes it.
package struct RefundEvidence: Sendable, Equatable {
  /// Per Play order id as written (`GPA.…..N`): the earliest instant an earnings `Charge refund` row
  /// of the order states.
  package var playEarnings: [String: Instant] = [:]
  /// Per App Store transaction id: what notifications say of it.
  package var apple: [String: AppleNotices] = [:]

  /// What the App Store's notifications say about one transaction.
  package struct AppleNotices: Sendable, Equatable {
    /// Where a REFUND notification of the transaction was read: `the app's log`, `Apple's
    /// notification history` (each once, in that order).
    package var refundSources: [String] = []
    /// The latest REFUND_REVERSED notification's `signedDate`, if any.
    package var reversedAt: Instant?
    /// The latest REFUND notification's `signedDate`, if any.
    package var refundedAt: Instant?

    /// Nothing known.
    package init() {}
  }

  /// No evidence.
  package init() {}

  /// The source name of the app's notification log.
  package static let appLog = "the app's log"
  /// The source name of Apple's notification history.
  package static let appleHistory = "Apple's notification history"

  /// Whether no source outside the feed says anything.
  package var isEmpty: Bool { playEarnings.isEmpty && apple.isEmpty }

  /// Notes an earnings `Charge refund` of `order` at `at` (the earliest instant is kept).
  package mutating func addPlayEarningsRefund(order: String, at: Instant) {
    if let known = playEarnings[order], known <= at { return }
    playEarnings[order] = at
  }

  /// Notes an App Store REFUND (`reversal` false) or REFUND_REVERSED notification of `transactionId`
  /// signed at `at`, read from `source`.
  package mutating func addAppleNotice(transactionId: String, reversal: Bool, at: Instant?, source: String) {
    var notices = apple[transactionId] ?? AppleNotices()
    if reversal {
      if let at, notices.reversedAt.map({ $0 < at }) ?? true { notices.reversedAt = at }
    } else {
      if !notices.refundSources.contains(source) {
        notices.refundSources.append(source)
        notices.refundSources.sort { RefundEvidence.sourceRank($0) < RefundEvidence.sourceRank($1) }
      }
      if let at, notices.refundedAt.map({ $0 < at }) ?? true { notices.refundedAt = at }
    }
    apple[transactionId] = notices
  }

  static func sourceRank(_ source: String) -> Int { source == RefundEvidence.appLog ? 0 : 1 }
}
