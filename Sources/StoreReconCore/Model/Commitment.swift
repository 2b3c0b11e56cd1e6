/// Where a chain stands in a commitment plan, as one store record states it: an App Store monthly
/// subscription with a 12-month commitment (`billingPlanType` `MONTHLY` and `commitmentInfo` on the
/// transaction), or a Google Play installments base plan (`autoRenewingPlan.installmentDetails` on the
/// subscription resource). docs/rules.md#commitment-plans.
///
/// Each payment of such a plan is its own charge of one billing period; the commitment only says how
/// many payments the customer agreed to and when that agreement ends.
package struct Commitment: Sendable, Equatable {
  /// The payment this record is (Apple `billingPeriodNumber`, 1-based); Play: initial minus remaining.
  package var paymentNumber: Int?
  /// Payments the commitment holds (Apple `totalBillingPeriods`; Play `initialCommittedPaymentsCount`).
  package var totalPayments: Int?
  /// Committed payments still to pay after this one (Apple `totalBillingPeriods − billingPeriodNumber`;
  /// Play `remainingCommittedPaymentsCount`).
  package var remainingPayments: Int?
  /// When the commitment ends (Apple `commitmentExpiresDate`); Play states none.
  package var endsAt: Instant?
  /// Play `pendingCancellation`: the plan is cancelled, effective once the committed payments are made.
  package var pendingCancellation: Bool = false

  /// Creates the value from its fields.
  package init(
    paymentNumber: Int? = nil, totalPayments: Int? = nil, remainingPayments: Int? = nil,
    endsAt: Instant? = nil, pendingCancellation: Bool = false
  ) {
    self.paymentNumber = paymentNumber
    self.totalPayments = totalPayments
    self.remainingPayments = remainingPayments
    self.endsAt = endsAt
    self.pendingCancellation = pendingCancellation
  }

  /// The largest payment count the ledger keeps (a Play resource packs its counts in 12 bits each).
  package static let maxPayments = 4095

  /// How a finding's detail names it: `commitment: payment 3 of 12, 9 to pay, ends 2027-05-03T10:00:00.000Z`.
  package var detail: String {
    var parts: [String] = []
    switch (paymentNumber, totalPayments) {
    case (let n?, let total?): parts.append("payment \(n) of \(total)")
    case (let n?, nil): parts.append("payment \(n)")
    case (nil, let total?): parts.append("\(total) payments")
    case (nil, nil): break
    }
    if let remainingPayments { parts.append("\(remainingPayments) to pay") }
    if let endsAt { parts.append("ends \(endsAt)") }
    if pendingCancellation { parts.append("cancellation pending") }
    return "commitment: " + (parts.isEmpty ? "plan" : parts.joined(separator: ", "))
  }

  /// The counts of a Play resource packed in 32 bits: initial (bits 0–11), remaining (12–23), bit 24 set
  /// (installments present), bit 25 pending cancellation, bit 26 initial known, bit 27 remaining known.
  package var packed: UInt32 {
    var bits: UInt32 = 1 << 24
    if let total = totalPayments {
      bits |= UInt32(min(max(total, 0), Commitment.maxPayments)) | 1 << 26
    }
    if let remaining = remainingPayments {
      bits |= UInt32(min(max(remaining, 0), Commitment.maxPayments)) << 12 | 1 << 27
    }
    if pendingCancellation { bits |= 1 << 25 }
    return bits
  }

  /// The commitment `packed` holds, `nil` for 0 (no installments).
  package init?(packed bits: UInt32) {
    guard bits & (1 << 24) != 0 else { return nil }
    let total: Int? = bits & (1 << 26) != 0 ? Int(bits & 0xFFF) : nil
    let remaining: Int? = bits & (1 << 27) != 0 ? Int((bits >> 12) & 0xFFF) : nil
    var number: Int?
    if let total, let remaining, total >= remaining { number = total - remaining }
    self.init(
      paymentNumber: number, totalPayments: total, remainingPayments: remaining,
      pendingCancellation: bits & (1 << 25) != 0)
  }
}
