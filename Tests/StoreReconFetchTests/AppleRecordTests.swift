import Foundation
import Testing
import StoreReconIO

@testable import StoreReconFetch
@testable import StoreReconSettings

/// The App Store source's files: the latest signed transaction per id, and the notification line.
@Suite struct AppleRecordTests {
  /// A compact JWS of `payload` with a made-up signature (the fetch decodes, the run verifies).
  static func jws(_ payload: String) -> String {
    "eyJhbGciOiJFUzI1NiJ9." + JWT.base64URL(Array(payload.utf8)) + ".c2ln"
  }

  static func transaction(_ id: String, original: String = "100", purchase: Int64 = 1000, signed: Int64)
    -> String
  {
    jws(
      "{\"transactionId\":\"\(id)\",\"originalTransactionId\":\"\(original)\",\"purchaseDate\":\(purchase),"
        + "\"signedDate\":\(signed),\"expiresDate\":\(purchase + 500)}")
  }

  @Test func theLaterSignedStateOfATransactionWins() throws {
    var store = try AppleTransactionStore(file: nil)
    let bought = try #require(AppleTransactionStore.entry(Self.transaction("1", signed: 10)))
    let refunded = try #require(AppleTransactionStore.entry(Self.transaction("1", signed: 20)))
    let first = store.merge(bought)
    let newer = store.merge(refunded)
    let older = store.merge(bought)
    let same = store.merge(refunded)
    #expect(first && newer)
    #expect(!older, "an older state does not replace a newer one")
    #expect(!same, "the same state again changes nothing")
    #expect(store.entries["1"]?.signedDate == 20)
    #expect(store.entries["1"]?.activeUntil == 1500)
  }

  @Test func theFileIsOrderedAndReadsBack() throws {
    var store = try AppleTransactionStore(file: nil)
    for (id, original, purchase) in [("3", "200", Int64(5)), ("2", "100", 9), ("1", "100", 7)] {
      _ = store.merge(
        try #require(
          AppleTransactionStore.entry(Self.transaction(id, original: original, purchase: purchase, signed: 1))
        ))
    }
    let file = store.serialized()
    let ids = String(decoding: file, as: UTF8.self).split(separator: "\n").compactMap {
      AppleTransactionStore.entry(String($0))?.transactionId
    }
    #expect(ids == ["1", "2", "3"])
    #expect(try AppleTransactionStore(file: file).entries == store.entries)
    #expect { try AppleTransactionStore(file: file + Array("{\"transactionId\":\"4\"}\n".utf8)) } throws: {
      ($0 as? FetchError)?.message.hasPrefix("apple/transactions.jsonl line 4 is not a signed transaction")
        == true
    }
  }

  @Test func aNotificationLineHasItsDocumentedShape() throws {
    let info = Self.transaction("2000000987", original: "2000000123", signed: 1)
    let payload = Self.jws(
      "{\"notificationType\":\"DID_RENEW\",\"notificationUUID\":\"u-1\",\"signedDate\":1764547200000,"
        + "\"data\":{\"signedTransactionInfo\":\"\(info)\"}}")
    let item = try JSONParser.parse(
      "{\"signedPayload\":\"\(payload)\",\"sendAttempts\":[{\"attemptDate\":1764547201000,\"sendAttemptResult\":\"TIMED_OUT\"}]}"
    )
    let notification = try #require(AppleNotification(item))
    #expect(
      notification.line
        == "{\"notificationUUID\":\"u-1\",\"notificationType\":\"DID_RENEW\",\"subtype\":\"\",\"signedDate\":1764547200000,"
        + "\"originalTransactionId\":\"2000000123\",\"transactionId\":\"2000000987\",\"firstSendAttemptResult\":\"TIMED_OUT\","
        + "\"sendAttempts\":[{\"attemptDate\":1764547201000,\"sendAttemptResult\":\"TIMED_OUT\"}],\"signedPayload\":\"\(payload)\"}"
    )
    let file = AppleNotification.serialized(["u-1": notification])
    #expect(try AppleNotification.load(file)["u-1"] == notification)
    #expect(AppleNotification(try JSONParser.parse("{\"signedPayload\":\"not-a-jws\"}")) == nil)
  }
}

/// Two fetches into one folder: the second is refused while the first holds the folder's lock.
@Suite struct FetchLockTests {
  @Test func aSecondFetchIntoTheSameFolderIsUnavailable() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "fetch-lock-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let held = try FetchRun.lockFolder(folder.path + "/into")
    #expect { try FetchRun.lockFolder(folder.path + "/into") } throws: { error in
      guard let error = error as? FetchError else { return false }
      return error.kind == .unavailable && error.message.contains("another fetch into")
    }
    held.release()
    let again = try FetchRun.lockFolder(folder.path + "/into")
    again.release()
  }
}
