import StoreReconIO
import StoreReconSettings

/// The latest signed transaction of every transaction id the App Store fetch kept, one compact JWS each
/// as Apple sent it, read from the journal's files (``FetchJournal``). A transaction seen
/// again replaces the kept one when its `signedDate` is later (a refund or a revocation is signed after
/// the purchase) and something besides `signedDate` changed; what changed since the last journal file
/// was written is ``pending``, ordered by original transaction id, purchase date and transaction id, so
/// the same transactions always give the same bytes.
struct AppleTransactionStore {
  /// One kept transaction.
  struct Entry: Equatable {
    var jws: String
    var transactionId: String
    var originalTransactionId: String
    var purchaseDate: Int64
    var signedDate: Int64
    /// `expiresDate`, else `purchaseDate`.
    var activeUntil: Int64
  }

  private(set) var entries: [String: Entry] = [:]
  /// The transactions new or changed since ``takePending()`` last ran, by transaction id.
  private(set) var pending: [String: Entry] = [:]

  /// An empty store.
  init() {}

  /// Adds a journal file's transactions (`name`: its path under `fetch.into`, for the error), in file
  /// order. A line that is not a decodable transaction JWS is a data error (the file is storerecon's own:
  /// it was changed by hand). What a file gives is not pending: it is written already.
  mutating func load(_ file: [UInt8], name: String) throws(FetchError) {
    var number = 0
    for line in file.split(separator: 0x0A, omittingEmptySubsequences: false) {
      number += 1
      guard !line.isEmpty else { continue }
      let text = String(decoding: line, as: UTF8.self)
      guard let entry = AppleTransactionStore.entry(text) else {
        throw FetchError(
          .dataError, "\(name) line \(number) is not a signed transaction (delete the folder to fetch anew)")
      }
      if let kept = entries[entry.transactionId], kept.signedDate > entry.signedDate { continue }
      entries[entry.transactionId] = entry
    }
  }

  /// The entry of a signed transaction, or `nil` when it is not a JWS whose payload has a
  /// `transactionId`, an `originalTransactionId` and a `purchaseDate`.
  static func entry(_ jws: String) -> Entry? {
    guard let payload = try? JWS.decodedPayload(jws), let id = payload["transactionId"]?.text,
      let original = payload["originalTransactionId"]?.text,
      let purchase = payload["purchaseDate"]?.int64Value
    else { return nil }
    let signed = payload["signedDate"]?.int64Value ?? 0
    return Entry(
      jws: jws, transactionId: id, originalTransactionId: original, purchaseDate: purchase,
      signedDate: signed,
      activeUntil: payload["expiresDate"]?.int64Value ?? purchase)
  }

  /// Keeps `entry` unless the kept one of its id is the same, signed later, or the same state signed
  /// again (Apple signs a transaction anew in every answer: only `signedDate` differs); returns whether
  /// it changed. A change is also ``pending``.
  mutating func merge(_ entry: Entry) -> Bool {
    if let kept = entries[entry.transactionId] {
      if kept.jws == entry.jws || kept.signedDate > entry.signedDate { return false }
      if AppleTransactionStore.sameState(kept.jws, entry.jws) { return false }
    }
    entries[entry.transactionId] = entry
    pending[entry.transactionId] = entry
    return true
  }

  /// Whether two signed transactions' payloads are equal but for `signedDate`.
  static func sameState(_ a: String, _ b: String) -> Bool {
    guard case .object(var left)? = try? JWS.decodedPayload(a),
      case .object(var right)? = try? JWS.decodedPayload(b)
    else { return false }
    left["signedDate"] = nil
    right["signedDate"] = nil
    return left == right
  }

  /// The original transaction ids of the kept transactions.
  var originalTransactionIds: Set<String> { Set(entries.values.map(\.originalTransactionId)) }

  /// The bytes of a journal file of the pending transactions (`nil`: none), which are then no longer
  /// pending.
  mutating func takePending() -> [UInt8]? {
    guard !pending.isEmpty else { return nil }
    defer { pending = [:] }
    return AppleTransactionStore.serialized(pending.values)
  }

  /// The bytes of every kept transaction, as one file.
  func serialized() -> [UInt8] { AppleTransactionStore.serialized(entries.values) }

  /// `entries` one JWS a line, ordered by original transaction id, purchase date and transaction id.
  static func serialized(_ entries: some Collection<Entry>) -> [UInt8] {
    let ordered = entries.sorted {
      ($0.originalTransactionId, $0.purchaseDate, $0.transactionId)
        < ($1.originalTransactionId, $1.purchaseDate, $1.transactionId)
    }
    var out: [UInt8] = []
    out.reserveCapacity(ordered.reduce(0) { $0 + $1.jws.utf8.count + 1 })
    for entry in ordered {
      out.append(contentsOf: entry.jws.utf8)
      out.append(0x0A)
    }
    return out
  }
}
