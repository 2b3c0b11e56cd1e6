/// Money at stake, counted once per charge group: the cases of one chain are about that chain's charges,
/// so a chain's money counts once, at the largest amount any of its cases puts at stake
/// (docs/cases.md#money-at-stake). Converted into the reporting currency where a rate is known; kept per
/// currency where none is.
package struct MoneyAtStake: Sendable, Equatable {
  /// The sum in the reporting currency (minor units), over the groups that could be converted; `nil`
  /// without a reporting currency.
  package var reportingMinor: Int64?
  /// The reporting currency, if any.
  package var reportingCurrency: Currency?
  /// Sums per currency of the groups that could not be converted (all of them without a reporting
  /// currency), in currency order.
  package var unconverted: [Money]
  /// The cases counted.
  package var cases: Int
  /// The charge groups counted (each once).
  package var groups: Int

  /// Creates a total from its fields.
  package init(
    reportingMinor: Int64?, reportingCurrency: Currency?, unconverted: [Money], cases: Int, groups: Int
  ) {
    self.reportingMinor = reportingMinor
    self.reportingCurrency = reportingCurrency
    self.unconverted = unconverted
    self.cases = cases
    self.groups = groups
  }

  /// Whether no money is at stake.
  package var isZero: Bool { (reportingMinor ?? 0) == 0 && unconverted.allSatisfy { $0.minor == 0 } }

  /// The money at stake of `cases`: per charge group (or per case without one) and currency, the
  /// largest absolute amount; each converted by `convert` into `reporting` where it gives a value.
  /// Cases whose money does not count (``Case/countsAtStake``) are counted as cases and add nothing.
  /// Sums saturate at `Int64.max` rather than trap.
  package static func of(
    _ cases: [Case], reporting: Currency?, convert: (Money) -> Int64?
  ) -> MoneyAtStake {
    struct Group: Hashable {
      var id: String
      var currency: String
    }
    var largest: [Group: Int64] = [:]
    for c in cases where c.countsAtStake {
      guard let code = c.currency, let amount = c.amountMinor, amount != 0 else { continue }
      let group = Group(id: c.chargeGroup ?? "case|" + c.key, currency: code)
      let value = Int64(clamping: amount.magnitude)
      if value > largest[group] ?? 0 { largest[group] = value }
    }
    var reportingSum: Int64? = reporting == nil ? nil : 0
    var perCurrency: [Currency: Int64] = [:]
    for group in largest.keys.sorted(by: { ($0.id, $0.currency) < ($1.id, $1.currency) }) {
      guard let value = largest[group], let currency = Currency.named(group.currency) else { continue }
      if reporting != nil, let converted = convert(Money(minor: value, currency: currency)),
        let sum = reportingSum
      {
        reportingSum = sum.addingReportingOverflow(converted).overflow ? Int64.max : sum + converted
      } else {
        let sum = perCurrency[currency] ?? 0
        perCurrency[currency] = sum.addingReportingOverflow(value).overflow ? Int64.max : sum + value
      }
    }
    let groups = Set(largest.keys.map(\.id)).count
    return MoneyAtStake(
      reportingMinor: reportingSum, reportingCurrency: reporting,
      unconverted: perCurrency.keys.sorted().map { Money(minor: perCurrency[$0] ?? 0, currency: $0) },
      cases: cases.count, groups: groups)
  }
}
