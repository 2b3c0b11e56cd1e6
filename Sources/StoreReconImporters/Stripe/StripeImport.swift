package import StoreReconCore
package import StoreReconIO

/// What reading every `stripe.objects` file gave: per file, its counts, rejected rows and the
/// normalised records its lines produced (docs/inputs.md#stripe-objects).
package struct StripeImport: Sendable {
  /// One file's share.
  package struct File: Sendable {
    /// read = accepted + rejected + duplicates + superseded.
    package var counts = InputCounts()
    package var duplicates = 0
    package var superseded = 0
    /// Rejected lines, in line order.
    package var rejects: [Reject] = []
    /// The records whose deciding line is in this file (an invoice's charge, a refund, a trial).
    package var records: [StoreTransaction] = []
    /// Set when the file could not be read to its end.
    package var error: String?
    /// The file's size and SHA-256 (hex), when the read hashed it (for its snapshot).
    package var digest: (bytes: Int64, sha256: String)?
    /// Earliest and latest record instant.
    package var firstAt: Instant?
    package var lastAt: Instant?

    /// Creates an empty share.
    package init() {}

    /// Adds a record, widening the file's span.
    mutating func add(_ record: StoreTransaction) {
      records.append(record)
      if record.at != Instant.distantPast {
        firstAt = min(firstAt ?? record.at, record.at)
        lastAt = max(lastAt ?? record.at, record.at)
      }
    }
  }

  /// Per input index.
  package var files: [Int32: File] = [:]
  /// Objects of types the reader does not use, by type: counted as accepted and skipped.
  package var unknownTypes: [String: Int] = [:]
  /// The charges and refunds of the feed, for the tie-out against Stripe's balance report.
  package var feed: [StripeFeedLine] = []
  /// The events read (`evt_…`), as Stripe's notification history: one per id (its last line), chain
  /// keys resolved, in id order (docs/rules.md#stripe-webhook-events).
  package var events: [StoreNotification] = []
  /// The ids that name a chain other than by its key — an invoice, its payment intents and charges; a
  /// one-time charge — mapped to the chain key (a notification's key is resolved through them, and the
  /// keymap joins them into the chain's lineage).
  package var aliases: [String: String] = [:]

  /// Whether a line's effect named the report date's window (a reason that another report date could
  /// change): the whole read's snapshot is then kept for that report date only.
  var mentionsWindow = false
  /// Where the whole read's snapshot is kept and what happened to it (docs/snapshot.md#the-whole-stripe-read),
  /// when the run keeps one.
  package var wholeSnapshot: (path: String, outcome: ParseSnapshot.Outcome)?

  /// Open disputes per chain key, each chain's in id order.
  package var openDisputes: [String: [StripeOpenDispute]] = [:]

  /// `key` resolved to the chain it names.
  package func chainKey(_ key: String) -> String { aliases[key] ?? key }

  /// Creates an empty import.
  package init() {}

  /// The one note for skipped object types, or `nil` when there were none.
  package var unknownNote: String? {
    guard !unknownTypes.isEmpty else { return nil }
    let list = unknownTypes.keys.sorted().map { "\($0) \(unknownTypes[$0] ?? 0)" }.joined(separator: ", ")
    let total = unknownTypes.values.reduce(0, +)
    return "stripe.objects: \(total) object(s) of types this run does not use skipped (\(list))"
  }

  /// Takes an accepted line back as rejected, with its reason.
  mutating func reject(_ origin: Origin, display: String, reason: String) {
    // Mutated in place: a copy taken out of the dictionary would copy the file's arrays on every call.
    files[origin.file, default: File()].counts.accepted -= 1
    files[origin.file, default: File()].counts.rejected += 1
    files[origin.file, default: File()].rejects.append(
      Reject(file: display, line: Int(origin.line), reason: reason, raw: ""))
  }

  /// Adds a record to the file its deciding line is in (in place, as ``reject(_:display:reason:)``).
  mutating func add(_ record: StoreTransaction) {
    files[record.origin.file, default: File()].add(record)
  }
}
