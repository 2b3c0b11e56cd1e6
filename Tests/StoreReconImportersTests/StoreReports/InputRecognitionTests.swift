import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters

@Suite struct InputRecognitionTests {
  static let jws = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2lnbmF0dXJlc2lnbmF0dXJl"

  /// A file of each kind, by the role that reads it.
  static let samples: [(role: String, kind: RecognisedInput, name: String, text: String)] = [
    (
      "app_store.transactions", .appStoreTransactions, "tx.jsonl",
      "{\"transactionId\":\"2000001\",\"originalTransactionId\":\"2000000\",\"productId\":\"pro\"}\n"
    ),
    ("app_store.transactions", .appStoreTransactions, "jws.txt", jws + "\n" + jws + "\n"),
    (
      "play.subscriptions", .playSubscriptions, "subs.jsonl",
      "{\"purchaseToken\":\"t\",\"subscriptionState\":\"SUBSCRIPTION_STATE_ACTIVE\",\"lineItems\":[]}\n"
    ),
    (
      "play.voided", .playVoided, "voided.jsonl",
      "{\"orderId\":\"GPA.1\",\"voidedTimeMillis\":\"1700000000000\"}\n"
    ),
    (
      "play.sales", .playSales, "salesreport_202611.csv",
      "Order Number,Order Charged Date,Order Charged Timestamp,Financial Status,SKU ID\n"
    ),
    ("play.earnings", .playEarnings, "PlayApps_202611.csv", PlayEarningsReportImporterTests.header + "\n"),
    (
      "app_store.sales_reports", .appleSales, "S_D_8912_20261128.txt",
      AppleSalesReportImporterTests.header + "\n"
    ),
    (
      "app_store.subscriber_reports", .appleSubscriber, "subscriber.txt",
      AppleSubscriberReportImporterTests.header + "\n"
    ),
    (
      "app_store.financial_reports", .appleFinancial, "financial.txt",
      AppleFinancialReportImporterTests.header + "\n"
    ),
    (
      "app.entitlements", .appEntitlements, "entitlements.csv",
      "entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at\n"
    ),
    (
      "app.credentials", .appCredentials, "credentials.csv",
      "store,store_key,user_id,linked_store_key,order_id,claimed_at\n"
    ),
    ("app.assignments", .appAssignments, "assignments.csv", "user_id,experiment_id,arm_id,assigned_at\n"),
    ("app.goodwill", .appGoodwill, "goodwill.csv", "grant_id,user_id,product_id,starts_at,ends_at,reason\n"),
    (
      "app.credits", .appCredits, "credits.csv",
      "credit_id,user_id,store,transaction_id,product_id,quantity,credited_at,reversed_at\n"
    ),
    (
      "app.notifications", .appNotifications, "notifications.csv",
      "store,notification_id,received_at,processed_at,payload\n"
    ),
    (
      "stripe.objects", .stripeObjects, "objects.jsonl",
      "{\"id\":\"sub_1Qx\",\"object\":\"subscription\",\"livemode\":true,\"status\":\"active\"}\n"
    ),
    (
      "stripe.events", .stripeEvents, "events.jsonl",
      "{\"id\":\"evt_1Qx\",\"object\":\"event\",\"type\":\"invoice.paid\",\"livemode\":true,"
        + "\"data\":{\"object\":{\"id\":\"in_1\",\"object\":\"invoice\"}}}\n"
    ),
    (
      "stripe.reports", .stripeBalance, "balance.csv",
      "balance_transaction_id,created_utc,currency,gross,fee,net,reporting_category\n"
        + "txn_1,2026-11-03 14:05:06,usd,9.99,0.59,9.40,charge\n"
    ),
  ]

  @Test func eachKindIsRecognisedAndPassesUnderItsOwnRole() throws {
    let dir = try TempDir()
    for sample in Self.samples {
      let path = try dir.write(sample.name, sample.text)
      #expect(
        InputRecognition.recognise(path: path, displayName: sample.name) == sample.kind, "\(sample.name)")
      #expect(sample.kind.role == sample.role)
      #expect(throws: Never.self) {
        try InputRecognition.check(path: path, displayName: sample.name, role: sample.role)
      }
    }
    #expect(Set(Self.samples.map(\.kind)).count == RecognisedInput.allCases.count - 1)
  }

  @Test func stripeObjectsUnderPlaySubscriptionsAreNamed() throws {
    let dir = try TempDir()
    let path = try dir.write(
      "objects.jsonl", "{\"object\":\"invoice\",\"id\":\"in_1\",\"livemode\":true,\"amount_paid\":999}\n")
    #expect(throws: InputError.self) {
      try InputRecognition.check(path: path, displayName: "objects.jsonl", role: "play.subscriptions")
    }
    #expect(throws: InputError.self) {
      try InputRecognition.check(
        path: try dir.write("subs.jsonl", "{\"purchaseToken\":\"t\",\"lineItems\":[]}\n"),
        displayName: "subs.jsonl",
        role: "stripe.objects")
    }
  }

  /// Events are Stripe objects too (a webhook log under `stripe.objects`); other objects under
  /// `stripe.events` are named, even when an event is nested in them.
  @Test func stripeEventsAndObjectsAreToldApart() throws {
    let dir = try TempDir()
    let events = try dir.write(
      "log.jsonl",
      "{\"object\": \"event\", \"id\":\"evt_1\",\"livemode\":true,\"data\":{\"object\":{\"object\":\"charge\"}}}\n"
    )
    #expect(InputRecognition.recognise(path: events, displayName: "log.jsonl") == .stripeEvents)
    #expect(throws: Never.self) {
      try InputRecognition.check(path: events, displayName: "log.jsonl", role: "stripe.objects")
    }
    let objects = try dir.write(
      "objects.jsonl",
      "{\"id\":\"ch_1\",\"type\":\"object\",\"object\":\"charge\",\"livemode\":true,"
        + "\"metadata\":{\"object\":\"event\"}}\n")
    #expect(InputRecognition.recognise(path: objects, displayName: "objects.jsonl") == .stripeObjects)
    #expect(throws: InputError.self) {
      try InputRecognition.check(path: objects, displayName: "objects.jsonl", role: "stripe.events")
    }
  }

  @Test func aSalesReportAsTransactionsNamesWhereItBelongs() throws {
    let dir = try TempDir()
    let text = AppleSalesReportImporterTests.header + "\n" + AppleSalesReportImporterTests.row() + "\n"
    let path = try dir.writeGzip("S_D_8912_20261128.txt.gz", text)
    let error = InputError.wrongRole(
      path: "reports/S_D_8912_20261128.txt",
      looksLike: "an Apple Summary Sales report, not App Store transactions",
      belongsUnder: "appStore.salesReports")
    #expect(throws: error) {
      try InputRecognition.check(
        path: path, displayName: "reports/S_D_8912_20261128.txt", role: "app_store.transactions")
    }
    #expect(
      error.description
        == "reports/S_D_8912_20261128.txt: this file looks like an Apple Summary Sales report, not App Store "
        + "transactions — list it under appStore.salesReports")
  }

  @Test func aJSONFileAsASalesReportThrows() throws {
    let dir = try TempDir()
    let path = try dir.write("tx.jsonl", Self.samples[0].text)
    #expect(
      throws: InputError.wrongRole(
        path: "tx.jsonl", looksLike: "App Store transactions (JSON Lines), not a Google Play sales report",
        belongsUnder: "appStore.transactions")
    ) { try InputRecognition.check(path: path, displayName: "tx.jsonl", role: "play.sales") }
  }

  @Test func bomsAndContainersAreSeenThrough() throws {
    let dir = try TempDir()
    let text = AppleFinancialReportImporterTests.header + "\n"
    let paths = [
      try dir.write("a.txt", bytes: utf16LE(text)), try dir.write("b.txt", bytes: utf8BOM(text)),
      try dir.writeZip("c.zip", entries: [("financial.csv", text)]),
    ]
    for path in paths {
      #expect(InputRecognition.recognise(path: path, displayName: "f") == .appleFinancial)
      #expect(throws: InputError.self) {
        try InputRecognition.check(path: path, displayName: "f", role: "app_store.sales_reports")
      }
    }
  }

  @Test func emptyUnknownAndMissingFilesPass() throws {
    let dir = try TempDir()
    let files = [
      try dir.write("empty.csv", ""), try dir.write("blank.csv", "\n\n  \n"),
      try dir.write("other.csv", "a,b,c\n1,2,3\n"), try dir.write("other.json", "{\"hello\":1}\n"),
      dir.path("missing.csv"),
    ]
    for path in files {
      #expect(InputRecognition.recognise(path: path, displayName: "x") == .unknown)
      for role in RecognisedInput.roles.map(\.role) + ["no.such.role"] {
        #expect(throws: Never.self) { try InputRecognition.check(path: path, displayName: "x", role: role) }
      }
    }
  }

  @Test func recognitionReadsOnlyThePrefix() throws {
    let dir = try TempDir()
    // A header past the first 64 KiB is not seen: the file cannot be told.
    let text = String(repeating: "\n", count: InputRecognition.prefixLimit + 10) + "grant_id,user_id\n"
    let path = try dir.write("late.csv", text)
    #expect(InputRecognition.recognise(path: path, displayName: "late.csv") == .unknown)
    let bytes = try InputBytes.prefix(path: path, limit: 100)
    #expect(bytes.count == 100)
  }
}
