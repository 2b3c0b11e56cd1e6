extension NextStep {
  /// Every step: what to do about each finding reason, tie-out status and rejected rows. The same
  /// sentence stands in the docs section of its anchor (`**What to do:** …`); a test checks both.
  package static let table: [NextStep] =
    findingSteps + tieOutSteps + [
      NextStep(
        .rejectedRows,
        "Open the input's file under rejects/ in the report folder, fix the rows at their source (the "
          + "reason column says what is wrong) and run again; a rejected row is in no finding or total.",
        "reports.md#rejects")
    ]

  /// The finding reasons' steps (docs/rules.md).
  static let findingSteps: [NextStep] = [
    NextStep(
      .finding(.unclaimed),
      "Look the purchase up by its chain key in App Store Connect or Play Console and find the customer "
        + "(the account token in the detail helps); grant the entitlement to that user, or refund the "
        + "purchase if nobody can be found.",
      "rules.md#orphaned_chargeunclaimed"),
    NextStep(
      .finding(.lockedOut),
      "Reactivate the user's entitlement in the entitlements table up to the store's paid-through, then "
        + "find out why the server did not apply the purchase or its renewal.",
      "rules.md#orphaned_chargelocked_out"),
    NextStep(
      .finding(.noStoreRecord),
      "Look the store key up in App Store Connect or Play Console: if no such purchase exists, end the "
        + "entitlement in the entitlements table; if it does, the store export missed it, so fetch it "
        + "again and rerun.",
      "rules.md#free_entitlementno_store_record"),
    NextStep(
      .finding(.sandbox),
      "End the entitlement in the entitlements table (or record a goodwill grant if it was given on "
        + "purpose), and make the production server refuse sandbox and license-tester receipts.",
      "rules.md#free_entitlementsandbox"),
    NextStep(
      .finding(.refunded),
      "Set the entitlement's status to revoked in the entitlements table, and make the server apply "
        + "refund and revocation notifications (Apple REFUND/REVOKE, Play voided purchases).",
      "rules.md#free_entitlementrefunded"),
    NextStep(
      .finding(.superseded),
      "End the old purchase's entitlement in the entitlements table and check that the newer purchase "
        + "named in the detail grants access instead.",
      "rules.md#free_entitlementsuperseded"),
    NextStep(
      .finding(.storeExpired),
      "Set the entitlement to expired in the entitlements table (or record a goodwill grant if support "
        + "extended it on purpose), then find out why the server missed the expiry.",
      "rules.md#free_entitlementstore_expired"),
    NextStep(
      .finding(.overextended),
      "Move the entitlement's expires_at back to the store's paid-through in the entitlements table, or "
        + "record a goodwill grant if the extension was on purpose.",
      "rules.md#free_entitlementoverextended"),
    NextStep(
      .finding(.productMismatch),
      "Change the entitlement's product_id in the entitlements table to the chain's product named in the "
        + "detail, and check that the server applies upgrades and downgrades.",
      "rules.md#free_entitlementproduct_mismatch"),
    NextStep(
      .finding(.multipleUsers),
      "Decide which user owns the purchase (normally the first claimer the detail names), remove the "
        + "other users' credential and entitlement rows for it, and make the server refuse restoring a "
        + "purchase to a second account.",
      "rules.md#duplicate_claimmultiple_users"),
    NextStep(
      .finding(.notCredited),
      "Credit the units (idempotently, by transaction id) and make sure the app finishes the transaction "
        + "only after the server has credited it.",
      "rules.md#uncredited_purchasenot_credited"),
    NextStep(
      .finding(.creditedTwice), "Reverse the extra credit rows, and key crediting on the transaction id.",
      "rules.md#double_creditcredited_twice"),
    NextStep(
      .finding(.overCredited),
      "Correct the credit; check the server's product-to-units table against the catalog.",
      "rules.md#double_creditover_credited"),
    NextStep(
      .finding(.refundNotReversed),
      "Take the units back (or record why not) and handle refund notifications and voided purchases in "
        + "the server.",
      "rules.md#credit_not_reversedrefund_not_reversed"),
    NextStep(
      .finding(.unknownTransaction),
      "Check the receipt validation; reverse the credit if the purchase is not real.",
      "rules.md#orphan_creditunknown_transaction"),
    NextStep(
      .finding(.sandboxCredit),
      "Reverse the credit, and make the production server refuse sandbox receipts.",
      "rules.md#orphan_creditsandbox_credit"),
    NextStep(
      .finding(.acrossStores),
      "Refund the later subscription's overlapping charges (or ask the customer which to keep), cancel "
        + "one, and make the paywall check the user's entitlements in both stores first.",
      "rules.md#double_billingacross_stores"),
    NextStep(
      .finding(.withinStore),
      "Refund the later subscription's overlapping charges in the store's console (or ask the customer "
        + "which to keep), cancel one, and make the paywall check the user's existing entitlement first.",
      "rules.md#double_billingwithin_store"),
    NextStep(
      .finding(.unprocessed),
      "Replay the notification the detail names through the server's notification handler, then look in "
        + "the handler's error log for why it was never processed.",
      "rules.md#notification_unprocessedunprocessed"),
    NextStep(
      .finding(.revocationNotApplied),
      "Revoke the user's entitlement in the entitlements table as the notification says, then find out "
        + "why the server processed the refund without changing the row.",
      "rules.md#notification_not_appliedrevocation_not_applied"),
    NextStep(
      .finding(.expiryNotApplied),
      "Set the user's entitlement to expired in the entitlements table as the notification says, then "
        + "find out why the server processed the expiry without changing the row.",
      "rules.md#notification_not_appliedexpiry_not_applied"),
    NextStep(
      .finding(.renewalNotApplied),
      "Extend the user's entitlement to the store's paid-through in the entitlements table, then find "
        + "out why the server processed the renewal without changing the row.",
      "rules.md#notification_not_appliedrenewal_not_applied"),
    NextStep(
      .finding(.neverReceived),
      "Check the notification URL in App Store Connect (App Information, App Store Server Notifications) "
        + "and the server's access log at the time signed; the transaction itself was read from the "
        + "history, so apply it if the findings show it missing.",
      "rules.md#notification_missingnever_received"),
  ]

  /// The tie-out statuses' steps (docs/tieout.md).
  static let tieOutSteps: [NextStep] = [
    NextStep(
      .tieOutCell(.reportMore),
      "Fetch that day's transactions from the store again (missed pages, notifications not stored) and "
        + "look for customers who paid without access among the orphaned_charge findings.",
      "tieout.md#report_more"),
    NextStep(
      .tieOutCell(.reportLess),
      "Look up the feed transactions the detail lists in App Store Connect or Play Console; download the "
        + "report again a day later, and remove duplicated or sandbox transactions from the feed.",
      "tieout.md#report_less"),
    NextStep(
      .tieOutCell(.priceDiffers),
      "Compare the cell's transactions with the report's rows price by price (Sales and Trends, or the "
        + "Play earnings report), looking for a price change or an offer price on that day.",
      "tieout.md#price_differs"),
    NextStep(
      .tieOutOrder(.missingInEarnings),
      "Look for the order in the next month's Play earnings report (a charge late in a month can settle "
        + "later); if it is not there, check in Play Console whether it is a test order or another app's.",
      "tieout.md#missing_in_earnings"),
    NextStep(
      .tieOutOrder(.missingInSales),
      "Check that every month's salesreport_YYYYMM is under play.sales in the config, and look for the "
        + "order in the previous month's sales report.",
      "tieout.md#missing_in_sales"),
    NextStep(
      .tieOutOrder(.amountDiffers),
      "Open the order in Play Console (Order management) and look for a partial refund, a refund booked "
        + "in another month, or another currency.",
      "tieout.md#amount_differs"),
    NextStep(
      .tieOutOrder(.feeDiffers),
      "Compare the config's fees.play and the product's type in catalog with the service fee Google kept "
        + "on the order; correct the config if the rate changed.",
      "tieout.md#fee_differs"),
    NextStep(
      .tieOutOrder(.refundNotInEarnings),
      "Open the order in Play Console (Order management) to see whether the refund went through; if it "
        + "did, look for it in the next month's earnings report, else the sales report's Refund row is early.",
      "tieout.md#refund_not_in_earnings"),
    NextStep(
      .tieOutOrder(.refundNotInSales),
      "Open the order in Play Console (Order management): a refund made in the console settles in the "
        + "earnings report; download the month's sales report again, and check that the entitlement was revoked.",
      "tieout.md#refund_not_in_sales"),
    NextStep(
      .tieOutOrder(.missingInReport),
      "Look the charge or refund up in the Stripe Dashboard: a test-mode object marked live, a charge that "
        + "failed, or a balance report run before it settled; run the report again for its day.",
      "tieout.md#missing_in_report"),
    NextStep(
      .tieOutOrder(.missingInFeed),
      "Look the charge or refund up in the Stripe Dashboard: fetch stripe.objects again (missed pages or "
        + "webhooks not stored), or it is a payment of another product of the account.",
      "tieout.md#missing_in_feed"),
  ]
}
