/// Running totals of one arm while lineages are credited; turned into ``ArmRow``s at the end.
struct ArmTally {
  /// Money and charge counts of one row.
  struct Totals {
    var renewals = 0
    var refunds = 0
    var refundsMinor: Int64 = 0
    var grossMinor: Int64 = 0
    var proceedsMinor: Int64 = 0
    var subscriptionLineages = 0
    var matureLineages = 0
  }

  /// What one credited user did.
  struct User {
    var firstPaidAt: Instant?
    var firstPaidCurrency: Currency?
    var trialCurrency: Currency?
    var trial = false
    var trialConverted = false
    var reportingNet: Int64 = 0
    var net: [Currency: Int64] = [:]

    /// The currency the user is counted under on currency rows.
    var currency: Currency? { firstPaidCurrency ?? trialCurrency }
  }

  var byCurrency: [Currency: Totals] = [:]
  var reporting = Totals()
  var users: [String: User] = [:]
  var renewalsByNumber: [Int] = []
  var chainsAssignedAfterPurchase = 0
  var chainsExcluded = 0
  var chainsOfOtherArmsProducts = 0
  /// Reporting-currency proceeds per charge day (days since the enrolment start).
  var proceedsByDayIndex: [Int: Int64] = [:]

  /// Every currency the arm has a row for, sorted.
  var currencies: [Currency] {
    Set(byCurrency.keys).union(users.values.compactMap(\.currency)).sorted()
  }
}
