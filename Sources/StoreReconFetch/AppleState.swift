/// The Apple source's section of `state.json`.
struct AppleState: Codable, Equatable {
  /// Per original transaction id: where its histories stand.
  struct Customer: Codable, Equatable {
    /// The transaction history's `revision` after the last page read (asks for what changed since).
    var revision: String?
    /// The refund history's `revision` after its last page.
    var refundRevision: String?
    /// The latest `expiresDate` (or, for a purchase without one, `purchaseDate`) of its transactions, ms:
    /// a customer is asked again while this is less than ``AppleFetchSource/recheckDays`` ago.
    var activeUntil: Int64?
    /// The Server API answered 404 for it (an id of another app or environment): asked again only when a
    /// notification names it.
    var notFound: Bool?
  }

  /// By original transaction id.
  var customers: [String: Customer] = [:]
  /// The notification history was read up to this instant (ms, exclusive).
  var notificationsThrough: Int64?
  /// Report days (`YYYY-MM-DD`) and fiscal months (`YYYY-MM`) fetched, within the backfill window.
  var salesDays: [String] = []
  var subscriberDays: [String] = []
  var financialMonths: [String] = []
}
