package import StoreReconCore

/// Says whether the inputs cover the report date, and why not: incomplete inputs are said, not hidden.
///
/// An input is incomplete for report date D (in the config's time zone) when:
/// - a configured file pattern matched no file (only possible with `--allow-missing`);
/// - a file could not be read as a whole (broken gzip, missing header column);
/// - a store money report holds less than its period: a header and no rows, or (Financial) no trailer;
/// - App Store transactions are configured but none is at or after local noon of D;
/// - Play sales reports are configured but no sales row is dated D or later.
package enum Completeness {
  /// A configured input that matched no file.
  package struct Missing: Sendable, Equatable {
    /// `play.sales`, `app.credentials`, …
    package var role: String
    /// The pattern or path as the config names it.
    package var pattern: String

    /// Creates a missing-input note.
    package init(role: String, pattern: String) {
      self.role = role
      self.pattern = pattern
    }
  }

  /// The reasons the inputs do not cover `date`, one sentence each; empty when they do. `notChecked`
  /// names the rules a failed input (role, path) left out: its sentence then starts with them
  /// (`free entitlements and orphaned charges not checked: app.entitlements … could not be read (…)`).
  package static func reasons(
    date: CivilDate, calendar: ReportCalendar, inputs: [InputReport], missing: [Missing],
    notChecked: (_ role: String, _ path: String) -> [String] = { _, _ in [] }
  ) -> [String] {
    var reasons: [String] = []
    func rules(_ role: String, _ path: String) -> String {
      let names = notChecked(role, path)
      guard let last = names.last else { return "" }
      let listed = names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " and " + last
      return listed + " not checked: "
    }
    for m in missing {
      let skipped = rules(m.role, m.pattern)
      reasons.append(skipped + "\(m.role): no file matches '\(m.pattern)'")
    }
    for input in inputs where input.error == nil {
      if let incomplete = input.incomplete { reasons.append("\(input.role) \(input.path): \(incomplete)") }
    }
    for input in inputs {
      guard let error = input.error else { continue }
      let skipped = rules(input.role, input.path)
      reasons.append(
        skipped.isEmpty
          ? "\(input.role) \(input.path): could not be read"
          : skipped + "\(input.role) \(input.path) could not be read (\(error))")
    }
    func latest(_ role: String) -> (configured: Bool, last: Instant?) {
      let readable = inputs.filter { $0.role == role && $0.error == nil }
      return (!readable.isEmpty, readable.compactMap(\.lastAt).max())
    }
    let zone = calendar.identifier
    let apple = latest("app_store.transactions")
    if apple.configured {
      let noon = calendar.instant(date, hour: 12)
      if let last = apple.last {
        if last < noon {
          reasons.append(
            "app_store.transactions: last transaction \(last), before noon of \(date) (\(zone))")
        }
      } else {
        reasons.append("app_store.transactions: no transactions at all")
      }
    }
    let sales = latest("play.sales")
    if sales.configured {
      if let last = sales.last {
        if last < calendar.start(of: date) {
          reasons.append("play.sales: no sales rows for \(date) (last row \(last))")
        }
      } else {
        reasons.append("play.sales: no sales rows at all")
      }
    }
    return reasons
  }
}
