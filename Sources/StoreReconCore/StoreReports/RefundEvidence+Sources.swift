extension RefundEvidence {
  /// The evidence of a run: the `Charge refund` rows of the Play earnings reports (a `Partial` refund
  /// leaves access open and is left out), and the production REFUND and REFUND_REVERSED notifications
  /// of the App Store in the app's log and Apple's notification history
  /// (docs/rules.md#free_entitlementrefunded).
  package init(earnings: [PlayEarningsRow], received: [StoreNotification], history: [StoreNotification]) {
    self.init()
    for row in earnings where row.type == .chargeRefund && row.refundType.lowercased() != "partial" {
      addPlayEarningsRefund(order: row.orderId, at: row.at ?? row.day.startUTC)
    }
    for (notices, source) in [(received, RefundEvidence.appLog), (history, RefundEvidence.appleHistory)] {
      for n in notices where n.store == .appStore && n.production {
        guard let transaction = n.transactionId, n.type == "REFUND" || n.type == "REFUND_REVERSED" else {
          continue
        }
        addAppleNotice(
          transactionId: transaction, reversal: n.type == "REFUND_REVERSED", at: n.eventAt, source: source)
      }
    }
  }
}
