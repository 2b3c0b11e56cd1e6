/// Everything one user (or, for a duplicate claim, two users) contributes to the world: store chains,
/// app rows, and the findings docs/rules.md must report for them.
struct DemoGroup {
  var chains: [DemoChain] = []
  package var entitlements: [DemoEntitlement] = []
  package var credentials: [DemoCredential] = []
  var assignments: [DemoAssignment] = []
  var goodwill: [DemoGoodwill] = []
  /// Rows of the app's credits ledger (consumable grants).
  var credits: [DemoCredit] = []
  /// Malformed entitlement rows, written as they are (each must be rejected).
  var rawEntitlementRows: [String] = []
  /// The findings this group was built to produce (empty for clean users and traps).
  var planted: [PlantedFinding] = []
  /// The App Store notifications about its chains (the classic world only).
  var notifications: [DemoNotification] = []
  /// Planted refunds one source shows: chain key → the words their `refunded` finding's detail must
  /// hold (``DemoRefundSourceCheck``).
  var refundSources: [String: String] = [:]
  /// Web subscriptions through Stripe (docs/rules.md#stripe).
  var stripe: [DemoStripeSubscription] = []
}
