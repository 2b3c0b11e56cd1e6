extension NextStep {
  /// The steps of findings and tie-out rows about Stripe where the general step names a store's console,
  /// receipts or notifications: Stripe's Dashboard, API and webhook events instead. Each stands in its
  /// anchor's docs section as a `**What to do (Stripe):**` line; a test checks both.
  package static let stripeTable: [NextStep] =
    stripeFindingSteps + [
      NextStep(
        .tieOutOrder(.amountDiffers),
        "Open the charge in the Stripe Dashboard (Payments) and look for a partial capture, a refund or "
          + "dispute booked apart, or a balance transaction in another currency whose exchange_rate the "
          + "report does not state.",
        "tieout.md#amount_differs"),
      NextStep(
        .tieOutOrder(.feeDiffers),
        "Compare the config's fees.stripe with the fee Stripe kept on the charge (its balance transaction "
          + "in the Stripe Dashboard); correct fees.stripe if the account's pricing differs.",
        "tieout.md#fee_differs"),
    ]

  /// The finding reasons' Stripe steps (docs/rules.md).
  static let stripeFindingSteps: [NextStep] = [
    NextStep(
      .finding(.unclaimed),
      "Look the subscription or payment up by its chain key in the Stripe Dashboard and find the customer "
        + "(its email and metadata help); grant the entitlement to that user, or refund the payment if "
        + "nobody can be found.",
      "rules.md#orphaned_chargeunclaimed"),
    NextStep(
      .finding(.noStoreRecord),
      "Look the store key up in the Stripe Dashboard: if no such subscription or payment exists, end the "
        + "entitlement in the entitlements table; if it does, stripe.objects missed it, so fetch it again "
        + "and rerun.",
      "rules.md#free_entitlementno_store_record"),
    NextStep(
      .finding(.sandbox),
      "End the entitlement in the entitlements table (or record a goodwill grant if it was given on "
        + "purpose), and make the production server refuse Stripe test-mode objects and events "
        + "(livemode false).",
      "rules.md#free_entitlementsandbox"),
    NextStep(
      .finding(.refunded),
      "Set the entitlement's status to revoked in the entitlements table, and make the server apply "
        + "Stripe's charge.refunded and charge.dispute.closed webhook events.",
      "rules.md#free_entitlementrefunded"),
    NextStep(
      .finding(.multipleUsers),
      "Decide which user owns the subscription (normally the first claimer the detail names), remove the "
        + "other users' credential and entitlement rows for it, and make the server refuse linking a "
        + "Stripe subscription to a second account.",
      "rules.md#duplicate_claimmultiple_users"),
    NextStep(
      .finding(.notCredited),
      "Credit the units (idempotently, by charge or payment intent id) and make the server credit web "
        + "purchases from Stripe's checkout.session.completed or payment_intent.succeeded event.",
      "rules.md#uncredited_purchasenot_credited"),
    NextStep(
      .finding(.refundNotReversed),
      "Take the units back (or record why not) and handle Stripe's charge.refunded and "
        + "charge.dispute.closed webhook events in the server.",
      "rules.md#credit_not_reversedrefund_not_reversed"),
    NextStep(
      .finding(.unknownTransaction),
      "Look the charge or payment intent up in the Stripe Dashboard; reverse the credit if the payment "
        + "is not real, and make the server credit only payments Stripe confirms.",
      "rules.md#orphan_creditunknown_transaction"),
    NextStep(
      .finding(.sandboxCredit),
      "Reverse the credit, and make the production server refuse Stripe test-mode payments (livemode "
        + "false).",
      "rules.md#orphan_creditsandbox_credit"),
    NextStep(
      .finding(.acrossStores),
      "Refund the later subscription's overlapping charges (a web one in the Stripe Dashboard) or ask "
        + "the customer which to keep, cancel one, and make the paywall and the web checkout check the "
        + "user's entitlements in every store first.",
      "rules.md#double_billingacross_stores"),
    NextStep(
      .finding(.withinStore),
      "Refund the later subscription's overlapping charges in the Stripe Dashboard (or ask the customer "
        + "which to keep), cancel one, and make the web checkout check the user's existing entitlement "
        + "first.",
      "rules.md#double_billingwithin_store"),
    NextStep(
      .finding(.unprocessed),
      "Replay the event the detail names through the server's webhook handler (the Stripe Dashboard's "
        + "Resend sends it again), then look in the handler's error log for why it was never processed.",
      "rules.md#notification_unprocessedunprocessed"),
    NextStep(
      .finding(.neverReceived),
      "Check the endpoint in the Stripe Dashboard (Developers, Webhooks: its URL, its enabled events and "
        + "the delivery attempts of the event the detail names) and the server's access log at the time "
        + "created; the event was read from Stripe's list, so apply it if the findings show it missing.",
      "rules.md#stripe-webhook-events"),
  ]

  /// The Stripe table by subject.
  static let stripeBySubject: [Subject: NextStep] = Dictionary(
    stripeTable.map { ($0.subject, $0) }, uniquingKeysWith: { first, _ in first })

  /// The step of a finding's reason about a chain of `store`: Stripe's own where it has one.
  package static func of(_ reason: Finding.Reason, store: Store) -> NextStep? {
    if store == .stripe, let step = stripeBySubject[.finding(reason)] { return step }
    return of(reason)
  }

  /// The step of a tie-out order's status of `store` (Google Play's, or Stripe's own); `nil` for
  /// `match`.
  package static func of(_ status: TieOutOrder.Status, store: Store) -> NextStep? {
    if store == .stripe, let step = stripeBySubject[.tieOutOrder(status)] { return step }
    return of(status)
  }
}
