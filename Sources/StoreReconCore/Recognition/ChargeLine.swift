/// One row of charges.csv: a charge, a refund or a Play voided order, with what it moves in
/// revenue.csv and revenue_recognition.csv (docs/reports.md#chargescsv).
package struct ChargeLine: Sendable, Equatable {
  /// What the row is.
  package enum Kind: String, Sendable, CaseIterable {
    /// A paid production charge (revenue.csv's `gross_minor`, revenue_recognition.csv's `billed_minor`).
    case charge
    /// An App Store refund (revocation) or a Play `Refund` row.
    case refund
    /// A Play voided purchase of an order no `Refund` row returns: the order's amount, returned in
    /// revenue_recognition.csv only.
    case void
  }

  package var kind: Kind
  package var store: Store
  package var chainKey: String
  /// The transaction (App Store) or order (Play) id; a refund's is its charge's.
  package var transactionId: String
  package var productId: String
  package var currency: Currency
  /// When it happened.
  package var at: Instant
  /// A charge's service period; `nil` for refunds and voids.
  package var serviceStart: Instant?
  package var serviceEnd: Instant?
  /// The amount charged or returned (positive), in minor units.
  package var amountMinor: Int64
  /// What it adds to revenue.csv's `proceeds_minor` (a refund's negative); `nil` for a void.
  package var proceedsMinor: Int64?
  package var proceedsSource: ProceedsSource?
  /// Whether revenue.csv counts it (a charge or refund: yes; a void: no).
  package var inRevenue: Bool
  /// Whether revenue_recognition.csv counts it (a refund of a charge the feed holds: yes).
  package var inRecognition: Bool

  /// Creates a line.
  package init(
    kind: Kind, store: Store, chainKey: String, transactionId: String, productId: String, currency: Currency,
    at: Instant, serviceStart: Instant? = nil, serviceEnd: Instant? = nil, amountMinor: Int64,
    proceedsMinor: Int64? = nil, proceedsSource: ProceedsSource? = nil, inRevenue: Bool, inRecognition: Bool
  ) {
    self.kind = kind
    self.store = store
    self.chainKey = chainKey
    self.transactionId = transactionId
    self.productId = productId
    self.currency = currency
    self.at = at
    self.serviceStart = serviceStart
    self.serviceEnd = serviceEnd
    self.amountMinor = amountMinor
    self.proceedsMinor = proceedsMinor
    self.proceedsSource = proceedsSource
    self.inRevenue = inRevenue
    self.inRecognition = inRecognition
  }

  /// Report order: store, chain key, instant, kind, transaction id, then the rest, so that one run and
  /// a partitioned one list the lines alike.
  package static func reportOrder(_ a: ChargeLine, _ b: ChargeLine) -> Bool {
    if a.store != b.store { return a.store < b.store }
    if a.chainKey != b.chainKey { return Array(a.chainKey.utf8).lexicographicallyPrecedes(b.chainKey.utf8) }
    if a.at != b.at { return a.at < b.at }
    if a.kind != b.kind {
      return (Kind.allCases.firstIndex(of: a.kind) ?? 0) < (Kind.allCases.firstIndex(of: b.kind) ?? 0)
    }
    if a.transactionId != b.transactionId {
      return Array(a.transactionId.utf8).lexicographicallyPrecedes(b.transactionId.utf8)
    }
    if a.amountMinor != b.amountMinor { return a.amountMinor < b.amountMinor }
    if a.productId != b.productId {
      return Array(a.productId.utf8).lexicographicallyPrecedes(b.productId.utf8)
    }
    if a.currency != b.currency { return a.currency.code < b.currency.code }
    return (a.proceedsMinor ?? Int64.min, a.serviceEnd?.ms ?? Int64.min)
      < (b.proceedsMinor ?? Int64.min, b.serviceEnd?.ms ?? Int64.min)
  }
}
