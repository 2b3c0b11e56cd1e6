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

  static func transaction(
    _ id: String, original: String = "100", purchase: Int64 = 1000, signed: Int64, revoked: Int64? = nil
  ) -> String {
    jws(
      "{\"transactionId\":\"\(id)\",\"originalTransactionId\":\"\(original)\",\"purchaseDate\":\(purchase),"
        + "\"signedDate\":\(signed),\"expiresDate\":\(purchase + 500)"
        + (revoked.map { ",\"revocationDate\":\($0),\"revocationReason\":0" } ?? "") + "}")
  }

  @Test func theLaterSignedStateOfATransactionWins() throws {
    var store = AppleTransactionStore()
    let bought = try #require(AppleTransactionStore.entry(Self.transaction("1", signed: 10)))
    let refunded = try #require(AppleTransactionStore.entry(Self.transaction("1", signed: 20, revoked: 15)))
    let first = store.merge(bought)
    let newer = store.merge(refunded)
    let older = store.merge(bought)
    let same = store.merge(refunded)
    #expect(first && newer)
    #expect(!older, "an older state does not replace a newer one")
    #expect(!same, "the same state again changes nothing")
    #expect(store.entries["1"]?.signedDate == 20)
    #expect(store.entries["1"]?.activeUntil == 1500)
    #expect(store.pending.keys.sorted() == ["1"] && store.pending["1"]?.signedDate == 20)
  }

  @Test func aTransactionSignedAgainUnchangedIsNotNew() throws {
    var store = AppleTransactionStore()
    _ = store.merge(try #require(AppleTransactionStore.entry(Self.transaction("1", signed: 10))))
    let first = store.takePending()
    #expect(first != nil)
    let resigned = store.merge(try #require(AppleTransactionStore.entry(Self.transaction("1", signed: 30))))
    #expect(!resigned, "only signedDate differs: the kept line stands and nothing is pending")
    let after = store.takePending()
    #expect(after == nil)
    #expect(store.entries["1"]?.signedDate == 10)
  }

  @Test func aJournalFileHoldsOnlyWhatChangedOrderedAndReadsBack() throws {
    var store = AppleTransactionStore()
    for (id, original, purchase) in [("3", "200", Int64(5)), ("2", "100", 9), ("1", "100", 7)] {
      _ = store.merge(
        try #require(
          AppleTransactionStore.entry(Self.transaction(id, original: original, purchase: purchase, signed: 1))
        ))
    }
    let pending = store.takePending()
    let file = try #require(pending)
    let ids = String(decoding: file, as: UTF8.self).split(separator: "\n").compactMap {
      AppleTransactionStore.entry(String($0))?.transactionId
    }
    #expect(ids == ["1", "2", "3"])
    var read = AppleTransactionStore()
    try read.load(file, name: "apple/transactions/000001-x.jsonl")
    #expect(read.entries == store.entries && read.pending.isEmpty)

    _ = store.merge(
      try #require(
        AppleTransactionStore.entry(
          Self.transaction("2", original: "100", purchase: 9, signed: 5, revoked: 4))))
    let second = store.takePending()
    let next = try #require(second)
    #expect(String(decoding: next, as: UTF8.self).split(separator: "\n").count == 1, "only the revoked one")
    try read.load(next, name: "apple/transactions/000002-x.jsonl")
    #expect(read.entries == store.entries, "a later file's state wins")
    #expect {
      try read.load(
        file + Array("{\"transactionId\":\"4\"}\n".utf8), name: "apple/transactions/000003-x.jsonl")
    } throws: {
      ($0 as? FetchError)?.message.hasPrefix(
        "apple/transactions/000003-x.jsonl line 4 is not a signed transaction")
        == true
    }
  }

  @Test func journalNamesSortInTheOrderWritten() {
    let t = Int64(1_764_484_212_000)  // 2025-11-30T06:30:12Z
    #expect(FetchJournal.name(after: [], nowMs: t) == "000001-20251130T063012Z.jsonl")
    let names = ["000000-history.jsonl", "000009-20251130T063012Z.jsonl", "notes.jsonl"]
    let next = FetchJournal.name(after: names, nowMs: t - 86_400_000)
    #expect(next == "000010-20251129T063012Z.jsonl", "a clock set back still sorts after")
    #expect((names.dropLast() + [next]).sorted().last == next)
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
