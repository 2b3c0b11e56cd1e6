/// Stripe's API shape the demo writes its web subscriptions in: before 2025-03-31 (a subscription's
/// current period at the top level, an invoice's `subscription`, `charge` and `payment_intent`), from
/// then on (the period on each item, `parent.subscription_details`, `payments`), or a mix (by default).
package enum DemoStripeShape: Sendable {
  case mixed, beforeBasil, basil
}
