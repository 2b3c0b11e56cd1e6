/// Running totals of one arm while lineages are credited; turned into ``ArmRow``s at the end.
///
/// Parts of the crediting pass keep their own tallies, added up afterwards (every field is a count or
/// a sum, so the order of the additions does not matter).
struct ArmTally: Equatable {
  /// Money and charge counts of one row.
  struct Totals: Equatable {
    var renewals = 0
    var refunds = 0
    var refundsMinor: Int64 = 0
    var grossMinor: Int64 = 0
    var proceedsMinor: Int64 = 0
    var subscriptionLineages = 0
    var matureLineages = 0
    /// Credited charges, and those whose proceeds a settlement report states.
    var charges = 0
    var settledCharges = 0

    mutating func add(_ other: Totals) {
      charges += other.charges
      settledCharges += other.settledCharges
      renewals += other.renewals
      refunds += other.refunds
      refundsMinor += other.refundsMinor
      grossMinor += other.grossMinor
      proceedsMinor += other.proceedsMinor
      subscriptionLineages += other.subscriptionLineages
      matureLineages += other.matureLineages
    }
  }

  /// What one assigned user did: kept in one array over the experiment's users, by user number.
  struct Person: Equatable {
    var firstPaidAt = PackedRecord.none
    var reportingNet: Int64 = 0
    /// Net proceeds in ``netCurrency`` (the user's first charge currency); other currencies are kept
    /// beside the array (``mixed``).
    var net: Int64 = 0
    var firstPaidCurrency: UInt16 = 0
    var trialCurrency: UInt16 = 0
    var netCurrency: UInt16 = 0
    var trial = false
    var trialConverted = false
    var credited = false
    /// Net proceeds in currencies other than ``netCurrency`` are kept beside the array.
    var mixed = false

    /// The currency the user is counted under on currency rows.
    var currency: Currency? {
      let code = firstPaidCurrency != 0 ? firstPaidCurrency : trialCurrency
      return code == 0 ? nil : Currency(tableIndex: Int(code) - 1)
    }
  }

  /// Totals per charge currency, by ISO table index; `hasRow[i]`: the arm has a row for currency `i`.
  var byCurrency: [Totals]
  var hasRow: [Bool]
  var reporting = Totals()
  var renewalsByNumber: [Int] = []
  var chainsAssignedAfterPurchase = 0
  var chainsExcluded = 0
  var chainsOfOtherArmsProducts = 0
  /// When each credited subscription lineage that is not yet mature by T matures (ms since the epoch):
  /// the end of its first billing period (``ArmReadout/maturesAt``).
  var immatureUntil: [Int64] = []
  /// Reporting-currency proceeds per charge day, days since the enrolment start through the report day
  /// (the series' days; charges on other days are not on the curve).
  var proceedsByDayIndex: [Int64]

  /// An empty tally whose curve covers `days` days.
  init(days: Int) {
    byCurrency = Array(repeating: Totals(), count: Currency.all.count)
    hasRow = Array(repeating: false, count: Currency.all.count)
    proceedsByDayIndex = Array(repeating: 0, count: max(0, days))
  }

  /// The totals of currency `c`, creating its row.
  @inline(__always)
  mutating func totals(_ c: Currency, _ change: (inout Totals) -> Void) {
    hasRow[c.tableIndex] = true
    change(&byCurrency[c.tableIndex])
  }

  /// Adds another part's tally.
  mutating func add(_ other: ArmTally) {
    for i in byCurrency.indices where other.hasRow[i] {
      hasRow[i] = true
      byCurrency[i].add(other.byCurrency[i])
    }
    reporting.add(other.reporting)
    if renewalsByNumber.count < other.renewalsByNumber.count {
      renewalsByNumber += Array(repeating: 0, count: other.renewalsByNumber.count - renewalsByNumber.count)
    }
    for (k, n) in other.renewalsByNumber.enumerated() { renewalsByNumber[k] += n }
    chainsAssignedAfterPurchase += other.chainsAssignedAfterPurchase
    chainsExcluded += other.chainsExcluded
    chainsOfOtherArmsProducts += other.chainsOfOtherArmsProducts
    immatureUntil += other.immatureUntil
    for (d, v) in other.proceedsByDayIndex.enumerated() { proceedsByDayIndex[d] += v }
  }
}
