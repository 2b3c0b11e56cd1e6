/// A store that sells the app's products. Raw values are the names used in CSV, SQL and reports.
package enum Store: String, Sendable, CaseIterable, Comparable, Codable {
  case appStore = "app_store"
  case play
  case stripe

  package static func < (lhs: Store, rhs: Store) -> Bool { lhs.rawValue < rhs.rawValue }
}
