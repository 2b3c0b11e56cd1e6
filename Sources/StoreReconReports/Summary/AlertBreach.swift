/// A threshold the run's findings exceed: which rule, and a sentence with the figure and the limit.
package struct AlertBreach: Sendable, Equatable {
  /// The rule's config key (`free_entitlement`, `orphaned_charge/unclaimed`).
  package var rule: String
  /// `free_entitlement: 150 findings > maxCount 100`.
  package var text: String

  /// Creates a breach.
  package init(rule: String, text: String) {
    self.rule = rule
    self.text = text
  }
}
