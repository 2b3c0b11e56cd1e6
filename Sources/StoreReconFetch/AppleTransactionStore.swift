import StoreReconIO
import StoreReconSettings

/// `apple/transactions.jsonl`: the latest signed transaction of every transaction id, one compact JWS a
/// line as Apple sent it. A transaction seen again replaces the kept one when its `signedDate` is later
/// (a refund or a revocation is signed after the purchase). Lines are ordered by original transaction
/// id, purchase date and transaction id, so the same transactions always give the same bytes.
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

  /// The file's path under `fetch.into`.
  static let path = "apple/transactions.jsonl"
  private(set) var entries: [String: Entry] = [:]

  /// The store of a previous fetch's file (`nil`: empty). A line that is not a decodable transaction JWS
  /// is a data error (the file is storerecon's own: it was changed by hand).
  init(file: [UInt8]?) throws(FetchError) {
    guard let file else { return }
    var number = 0
    for line in file.split(separator: 0x0A, omittingEmptySubsequences: false) {
      number += 1
      guard !line.isEmpty else { continue }
      let text = String(decoding: line, as: UTF8.self)
      guard let entry = AppleTransactionStore.entry(text) else {
        throw FetchError(
          .dataError,
          "\(AppleTransactionStore.path) line \(number) is not a signed transaction (delete the file to fetch anew)"
        )
      }
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

  /// Keeps `entry` unless the kept one of its id is the same or signed later; returns whether it changed.
  mutating func merge(_ entry: Entry) -> Bool {
    if let kept = entries[entry.transactionId], kept.jws == entry.jws || kept.signedDate > entry.signedDate {
      return false
    }
    entries[entry.transactionId] = entry
    return true
  }

  /// The original transaction ids of the kept transactions.
  var originalTransactionIds: Set<String> { Set(entries.values.map(\.originalTransactionId)) }

  /// The file's bytes.
  func serialized() -> [UInt8] {
    let ordered = entries.values.sorted {
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
