package import StoreReconCore
package import StoreReconIO

/// Reading the commitment-plan fields of the two stores (docs/rules.md#commitment-plans):
/// Apple's `billingPlanType` and `commitmentInfo` on a transaction, Google's
/// `autoRenewingPlan.installmentDetails` on a subscription line item.
package enum CommitmentFields {
  /// A payment count (`field` of `object`), from 0 to ``Commitment/maxPayments``.
  static func count(_ object: JSONValue, _ key: String, in field: String) throws(RowRejection) -> Int? {
    guard let value = try object.optionalInt64(key) else { return nil }
    guard value >= 0, value <= Int64(Commitment.maxPayments) else {
      throw RowRejection("\(field).\(key) '\(value)' is out of range (0 to \(Commitment.maxPayments))")
    }
    return Int(value)
  }

  /// The commitment an App Store transaction states: a `MONTHLY` billing plan, or a `commitmentInfo`
  /// object (`BILLED_UPFRONT` or no plan and no object: none).
  package static func appStore(_ payload: JSONValue, window: StoreTimeWindow) throws(RowRejection)
    -> Commitment?
  {
    let plan = try payload.optionalText("billingPlanType")
    let info = try payload.optionalObject("commitmentInfo")
    guard plan?.uppercased() == "MONTHLY" || info != nil else { return nil }
    var commitment = Commitment()
    if let info {
      commitment.paymentNumber = try count(info, "billingPeriodNumber", in: "commitmentInfo")
      commitment.totalPayments = try count(info, "totalBillingPeriods", in: "commitmentInfo")
      commitment.endsAt = try info.optionalMillis("commitmentExpiresDate", within: window)
      if let n = commitment.paymentNumber, let total = commitment.totalPayments {
        guard n <= total else {
          throw RowRejection("commitmentInfo.billingPeriodNumber \(n) is past totalBillingPeriods \(total)")
        }
        commitment.remainingPayments = total - n
      }
    }
    return commitment
  }

  /// The installment plan a Play line item's `autoRenewingPlan` states, if any.
  package static func play(_ plan: JSONValue) throws(RowRejection) -> Commitment? {
    guard let details = try plan.optionalObject("installmentDetails") else { return nil }
    let field = "installmentDetails"
    var commitment = Commitment()
    commitment.totalPayments = try count(details, "initialCommittedPaymentsCount", in: field)
    commitment.remainingPayments = try count(details, "remainingCommittedPaymentsCount", in: field)
    commitment.pendingCancellation = details["pendingCancellation"].map { $0 != .null } ?? false
    if let total = commitment.totalPayments, let remaining = commitment.remainingPayments,
      remaining <= total
    {
      commitment.paymentNumber = total - remaining
    }
    return commitment
  }
}
