import StoreReconCore

/// One row the demo writes to `app/goodwill.csv`: access support granted on purpose.
struct DemoGoodwill {
  var grantId: String
  var userId: String
  var productId: String
  var startsAt: Instant
  var endsAt: Instant?
  var reason: String
}
