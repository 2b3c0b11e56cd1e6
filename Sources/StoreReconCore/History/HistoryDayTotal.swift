/// One report date's findings of one kind in one currency, as the run history holds them: how many,
/// and the sum of their amounts at stake (findings without an amount count, and add nothing).
package struct HistoryDayTotal: Sendable, Equatable {
  package var date: CivilDate
  /// ``Finding/Kind`` raw value.
  package var kind: String
  /// ISO 4217 code of `amountMinor`; `nil` for the findings without an amount.
  package var currency: String?
  package var findings: Int
  /// Sum of the amounts, in minor units of `currency`; 0 where `currency` is `nil`.
  package var amountMinor: Int64

  /// Creates a total.
  package init(date: CivilDate, kind: String, currency: String?, findings: Int, amountMinor: Int64) {
    self.date = date
    self.kind = kind
    self.currency = currency
    self.findings = findings
    self.amountMinor = amountMinor
  }
}
