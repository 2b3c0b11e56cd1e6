/// One row of `experiment_arms.csv`: an arm's metrics in one charge currency (`scope` currency) or,
/// converted, in the reporting currency (`scope` reporting).
package struct ArmRow: Sendable, Equatable {
  /// Which money a row counts.
  package enum Scope: String, Sendable {
    /// Charges in `currency` only, in that currency's minor units.
    case currency
    /// Every charge, converted into the reporting currency.
    case reporting
  }

  package var scope: Scope
  package var currency: Currency
  /// Users assigned to the arm (every row of the arm: the denominator of the rates and averages).
  package var assigned = 0
  /// Assigned users with a credited purchase that began with a free trial (currency rows: users whose
  /// first paid charge, or else trial, was in this currency).
  package var trials = 0
  /// Of those, users with at least one credited paid charge in such a trial purchase.
  package var trialConversions = 0
  /// Assigned users with at least one credited paid charge (currency rows: first paid charge in this
  /// currency). A later refund does not undo a conversion.
  package var paidConversions = 0
  /// `paidConversions / assigned` and its 95 % Wilson interval; `nil` when nobody is assigned.
  package var conversionRate: Double?
  package var conversionInterval: Interval?
  /// Credited paid charges after the first paid charge of their lineage.
  package var renewals = 0
  /// Credited charges refunded (or voided) as of T, and the money returned (gross, positive).
  package var refunds = 0
  package var refundsMinor: Int64 = 0
  /// What customers paid for credited charges, tax included, before refunds.
  package var grossMinor: Int64 = 0
  /// Proceeds: gross − tax − store fee (the settlement report's where one covers the charge, else the
  /// fee schedule's estimate), less the proceeds of refunded money.
  package var proceedsMinor: Int64 = 0
  /// Credited paid charges, and how many of them have settled proceeds (``proceedsSource``).
  package var charges = 0
  package var settledCharges = 0
  /// `proceedsMinor / assigned`, rounded half-even to a minor unit; `nil` when nobody is assigned.
  package var revenuePerAssignedMinor: Int64?
  /// 95 % bootstrap interval of revenue per assigned user (minor units, as a statistic).
  package var revenuePerAssignedInterval: Interval?
  /// Credited subscription purchases (lineages) and those whose first billing period has elapsed by T.
  package var subscriptionLineages = 0
  package var matureLineages = 0

  /// Creates an empty row.
  package init(scope: Scope, currency: Currency) {
    self.scope = scope
    self.currency = currency
  }

  /// Where the row's proceeds come from: `settled` (every charge), `estimated` (none), or
  /// `settled N of M` (some).
  package var proceedsSource: String {
    if charges > 0 && settledCharges == charges { return "settled" }
    if settledCharges == 0 { return "estimated" }
    return "settled \(settledCharges) of \(charges)"
  }

  /// `matureLineages / subscriptionLineages`; `nil` when the arm has no credited subscription.
  package var matureShare: Double? {
    subscriptionLineages == 0 ? nil : Double(matureLineages) / Double(subscriptionLineages)
  }
}
