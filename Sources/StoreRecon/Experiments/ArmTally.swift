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

  /// What one assigned user did: kept in one array over the experiment's users, by user number.
  struct Person {
    var firstPaidAt = PackedRecord.none
    var reportingNet: Int64 = 0
    /// Net proceeds in ``netCurrency`` (the user's first charge currency); other currencies are kept
    /// beside the array.
    var net: Int64 = 0
    var firstPaidCurrency: UInt16 = 0
    var trialCurrency: UInt16 = 0
    var netCurrency: UInt16 = 0
    var trial = false
    var trialConverted = false
    var credited = false

    /// The currency the user is counted under on currency rows.
    var currency: Currency? {
      let code = firstPaidCurrency != 0 ? firstPaidCurrency : trialCurrency
      return code == 0 ? nil : Currency(tableIndex: Int(code) - 1)
    }
  }

  var byCurrency: [Currency: Totals] = [:]
  var reporting = Totals()
  /// Numbers of the credited users, in the order they were first credited.
  var users: [Int32] = []
  var renewalsByNumber: [Int] = []
  var chainsAssignedAfterPurchase = 0
  var chainsExcluded = 0
  var chainsOfOtherArmsProducts = 0
  /// Reporting-currency proceeds per charge day (days since the enrolment start).
  var proceedsByDayIndex: [Int: Int64] = [:]

  /// Every currency the arm has a row for, sorted.
  func currencies(_ people: [Person]) -> [Currency] {
    var set = Set(byCurrency.keys)
    for u in users { if let c = people[Int(u)].currency { set.insert(c) } }
    return set.sorted()
  }
}
