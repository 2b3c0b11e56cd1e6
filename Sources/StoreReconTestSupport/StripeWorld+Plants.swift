import Foundation

extension StripeWorld {
  /// One web subscription of the world: what Stripe holds about it and what the app holds.
  package struct Plant: Sendable {
    package var name: String
    package var user: String
    package var status = "active"
    /// Paid periods: start and end day in 2026 (month, day), paid at the start.
    package var periods: [(start: (Int, Int), end: (Int, Int))] = []
    package var amount: Int64 = 999
    package var currency = "usd"
    package var live = true
    package var trial: (start: (Int, Int), end: (Int, Int))?
    package var endedAt: (Int, Int)?
    package var cancelAtPeriodEnd = false
    /// An open (unpaid) invoice starting that day.
    package var openFrom: (Int, Int)?
    package var refunds: [(amount: Int64, at: (Int, Int))] = []
    package var dispute: (status: String, at: (Int, Int))?
    /// The app's entitlement (starts, expires) and who claimed the subscription.
    package var entitlement: (start: (Int, Int), end: (Int, Int))?
    package var claimedBy: [String] = []

    package init(_ name: String, user: String) {
      self.name = name
      self.user = user
    }
  }

  /// The plants, with the finding each one must give (or none for a control).
  package static let plants: [(plant: Plant, finding: String?)] = {
    func p(_ name: String, _ edit: (inout Plant) -> Void) -> Plant {
      var plant = Plant(name, user: "u-" + name)
      plant.claimedBy = [plant.user]
      edit(&plant)
      return plant
    }
    return [
      (
        p("active") {
          $0.periods = [((10, 10), (11, 10)), ((11, 10), (12, 10))]; $0.currency = "eur"
          $0.entitlement = ((11, 10), (12, 10))
        }, nil
      ),
      (
        p("canceled") {
          $0.periods = [((10, 20), (11, 20))]; $0.status = "canceled"; $0.endedAt = (11, 5)
          $0.entitlement = ((11, 20), (12, 20))
        }, "free_entitlement"
      ),
      (
        p("orphan") {
          $0.periods = [((11, 15), (12, 15))]; $0.claimedBy = []
        }, "orphaned_charge"
      ),
      (
        p("trial") {
          $0.status = "trialing"; $0.trial = ((11, 25), (12, 9)); $0.entitlement = ((11, 25), (12, 9))
        },
        nil
      ),
      (
        p("refunded") {
          $0.periods = [((11, 12), (12, 12))]; $0.refunds = [(999, (11, 14))]
          $0.entitlement = ((11, 12), (12, 12))
        }, "free_entitlement"
      ),
      (
        p("partial") {
          $0.periods = [((11, 12), (12, 12))]; $0.currency = "isk"; $0.amount = 129_900
          $0.refunds = [(30_000, (11, 14))]; $0.entitlement = ((11, 12), (12, 12))
        }, nil
      ),
      (
        p("testmode") {
          $0.periods = [((11, 12), (12, 12))]; $0.live = false; $0.claimedBy = []
        }, nil
      ),
      (
        p("pastdue") {
          $0.periods = [((10, 25), (11, 25))]; $0.status = "past_due"; $0.openFrom = (11, 25)
          $0.entitlement = ((11, 25), (12, 2))
        }, nil
      ),
      (
        // Unpaid since 26 Nov: no grace after the last paid period (only past_due gets graceDays.stripe),
        // so an entitlement running on to 2 Dec is store_expired at T 29 Nov.
        p("unpaid") {
          $0.periods = [((10, 26), (11, 26))]; $0.status = "unpaid"; $0.openFrom = (11, 26)
          $0.entitlement = ((11, 26), (12, 2))
        }, "store_expired"
      ),
      (
        p("endofperiod") {
          $0.periods = [((11, 5), (12, 5))]; $0.cancelAtPeriodEnd = true; $0.currency = "jpy"
          $0.amount = 1_500; $0.entitlement = ((11, 5), (12, 5))
        }, nil
      ),
      (
        p("dispute") {
          $0.periods = [((11, 3), (12, 3))]; $0.dispute = ("lost", (11, 20))
          $0.entitlement = ((11, 3), (12, 3))
        }, "free_entitlement"
      ),
      (
        p("double") {
          $0.periods = [((11, 8), (12, 8))]; $0.entitlement = ((11, 8), (12, 8))
        }, "double_billing"
      ),
      (
        p("twoclaims") {
          $0.periods = [((11, 6), (12, 6))]; $0.claimedBy = ["u-twoclaims", "u-twoclaims-b"]
          $0.entitlement = ((11, 6), (12, 6))
        }, "duplicate_claim"
      ),
    ]
  }()

  /// Every object of the world in `shape`, in file order.
  package static func objects(_ shape: Shape) -> [[String: Any]] {
    var out: [[String: Any]] = [
      [
        "id": "price_1ProMonthlyA", "object": "price", "lookup_key": "pro_monthly", "type": "recurring",
        "currency": "usd", "unit_amount": 999, "livemode": true, "created": at(1, 5),
      ]
    ]
    for (plant, _) in plants { out.append(contentsOf: objects(plant, shape)) }
    return out
  }

  /// The price as an invoice line or subscription item carries it.
  static var price: [String: Any] {
    [
      "id": "price_1ProMonthlyA", "object": "price", "lookup_key": "pro_monthly", "type": "recurring",
    ]
  }
}
