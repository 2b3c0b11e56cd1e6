package import StoreReconCore
package import StoreReconIO

/// One Stripe API object read from a line of `stripe.objects`: the object itself, or the `data.object`
/// of an event record (docs/inputs.md#stripe-objects).
package struct StripeObject: Sendable {
  /// The object types the reader uses; any other type is counted and skipped.
  package enum Kind: String, Sendable, CaseIterable {
    case subscription, invoice, charge, refund, dispute, customer, price, product
    case invoicePayment = "invoice_payment"
  }

  /// The object's type.
  package var kind: Kind
  /// Its `id` (`sub_…`, `in_…`, `ch_…`).
  package var id: String
  /// What the chains read of it, or why it cannot be read (which rejects its line only if it is the
  /// state kept).
  var part: Result<StripePart, RowRejection>
  /// ``StripeFingerprint`` of the object as Stripe returns it: an identical repeat has the same.
  package var fingerprint: UInt64
  /// Which state is the latest: the event's `created`, else the latest of the object's own
  /// timestamps, in Unix seconds.
  package var version: Int64
  /// The file and line it was read from.
  package var origin: Origin

  /// What one line holds: an object this reader uses, or one of another type.
  package enum Line: Sendable {
    case object(StripeObject)
    case unknown(type: String)
  }

  /// Reads one parsed line; rejects a line that is not a Stripe object.
  static func line<V: StripeJSON>(
    _ value: V, origin: Origin, metadataKeys: [String], window: StoreTimeWindow
  ) throws(RowRejection) -> Line {
    guard value.isObject else {
      throw RowRejection("expected a Stripe object, found \(value.brief)")
    }
    guard let type = try value.optionalText("object") else {
      throw RowRejection("missing \"object\" (a Stripe API object names its type there)")
    }
    var object = value
    var version: Int64?
    if type == "event" {
      guard let data = try value.optionalObject("data"), let inner = try data.optionalObject("object") else {
        throw RowRejection("event without data.object")
      }
      object = inner
      version = try seconds(value, "created")
    }
    guard let innerType = try object.optionalText("object") else {
      throw RowRejection("missing \"object\" in the event's data.object")
    }
    guard let kind = Kind(rawValue: innerType) else { return .unknown(type: innerType) }
    let id = try object.requiredText("id")
    let own = try ownVersion(object)
    let origin = origin
    let part = Result { () throws(RowRejection) -> StripePart in
      try StripePart.read(
        kind, object,
        head: .init(kind: kind, id: id, origin: origin, metadataKeys: metadataKeys, window: window))
    }
    return .object(
      StripeObject(
        kind: kind, id: id, part: part, fingerprint: object.fingerprint, version: version ?? own,
        origin: origin))
  }

  /// The latest of the object's own timestamps (its `created`, cancellation and end, and its
  /// invoice status transitions).
  static func ownVersion<V: StripeJSON>(_ object: V) throws(RowRejection) -> Int64 {
    var latest: Int64 = 0
    for key in ["created", "canceled_at", "ended_at"] {
      if let at = try seconds(object, key) { latest = max(latest, at) }
    }
    if let transitions = try object.optionalObject("status_transitions") {
      for key in ["finalized_at", "paid_at", "voided_at", "marked_uncollectible_at"] {
        if let at = try seconds(transitions, key) { latest = max(latest, at) }
      }
    }
    return latest
  }

  /// A Unix time in seconds that may be absent.
  static func seconds<V: StripeJSON>(_ object: V, _ key: String) throws(RowRejection) -> Int64? {
    guard let value = try object.optionalInt64(key) else { return nil }
    guard value >= 0, value < Instant.distantFuture.ms / 1000 else {
      throw RowRejection("\(key) '\(value)' is not a Unix time in seconds")
    }
    return value
  }

  /// A Unix time in seconds that may be absent, as an instant within the run's time `window`.
  static func instant<V: StripeJSON>(_ object: V, _ key: String, within window: StoreTimeWindow)
    throws(RowRejection) -> Instant?
  {
    guard let s = try seconds(object, key) else { return nil }
    if let problem = window.problem(key, s * 1000) { throw RowRejection(problem) }
    return Instant(ms: s * 1000)
  }

  /// An id field that is either the id or the expanded object holding it.
  static func reference<V: StripeJSON>(_ object: V, _ key: String) throws(RowRejection) -> String? {
    guard let value = object[key] else { return nil }
    if value.isObject { return try value.optionalText("id") }
    return try object.optionalText(key)
  }
}
