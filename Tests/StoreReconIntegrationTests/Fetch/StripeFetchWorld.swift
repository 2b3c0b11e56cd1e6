import Foundation
import StoreReconCore
import StoreReconFetch
import StoreReconPlatform
import StoreReconSettings
import StoreReconTestSupport
import Testing

/// The loopback stand-in for Stripe's API (Fetch/stripe_api_server.py, python3 standard library) over
/// TLS with a self-signed certificate, serving a small account the world writes as fixtures, and the
/// folder a fetch writes into.
final class StripeFetchWorld {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("stripe_api_server.py").path
  /// The key the server accepts (a restricted test-mode key's shape).
  static let key = "rk_test_51StoreReconTestKey0000000000000000abcd"

  /// Whether python3 and openssl are there.
  static let available =
    TestCertificate.opensslAvailable && LoopbackScript.pythonImports("ssl, http.server, csv")

  static let unavailable: Comment =
    "python3 or /usr/bin/openssl is not installed: Stripe fetch tests (stripe_api_server.py) skipped"

  let directory: URL
  let fixtures: URL
  let certificate: TestCertificate
  let port: Int
  private let process: Process
  /// The time the world's objects are dated from (seconds since 1970).
  let now = Int64(Date().timeIntervalSince1970)

  var into: URL { directory.appendingPathComponent("fetched") }
  var baseURL: String { "https://127.0.0.1:\(port)" }
  var keyFile: URL { directory.appendingPathComponent("stripe.key") }

  /// Starts the server on the account of ``objects()`` and writes the key file (mode 600).
  init() throws {
    directory = try Binary.temporaryDirectory()
    fixtures = directory.appendingPathComponent("server", isDirectory: true)
    try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
    certificate = try TestCertificate(in: directory)
    let keyFile = directory.appendingPathComponent("stripe.key")
    try Data((Self.key + "\n").utf8).write(to: keyFile)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
    let portFile = fixtures.appendingPathComponent("port")
    process = Process()
    port = try LoopbackScript.start(
      process,
      arguments: [
        "python3", Self.script, "--dir", fixtures.path, "--port-file", portFile.path, "--cert",
        certificate.certificate, "--key", certificate.key, "--api-key", Self.key, "--lifetime", "300",
      ], portFile: portFile)
    try write("objects.json", objects())
    try write("events.json", events())
    try write("balance.json", balance())
    try write("report.json", report())
  }

  // MARK: The account

  func days(_ n: Int64) -> Int64 { now - n * 86_400 }

  /// The objects: a subscription (with its invoice paid through an invoice payment, its charge and the
  /// charge's balance transaction), a canceled one, a renewal invoice of a subscription created long
  /// before the backfill (whose subscription and customer come by reference), a refund, a dispute, the
  /// catalog, and 120 more customers (two list pages).
  func objects() -> [[String: Any]] {
    let price: [String: Any] = [
      "id": "price_M", "object": "price", "active": true, "created": days(300), "currency": "eur",
      "lookup_key": "pro_monthly", "product": "prod_PRO",
      "recurring": ["interval": "month", "interval_count": 1],
      "unit_amount": 999, "livemode": false,
    ]
    func subscription(_ id: String, customer: String, status: String, created: Int64) -> [String: Any] {
      [
        "id": id, "object": "subscription", "created": created, "customer": customer, "status": status,
        "cancel_at_period_end": false, "livemode": false, "metadata": ["app_user_id": "u-\(id)"],
        "items": [
          "object": "list", "has_more": false,
          "data": [
            [
              "id": "si_\(id)", "object": "subscription_item", "price": price,
              "current_period_start": created, "current_period_end": created + 30 * 86_400,
            ]
          ],
        ],
      ]
    }
    var out: [[String: Any]] = [
      price,
      ["id": "prod_PRO", "object": "product", "created": days(300), "name": "Pro", "active": true],
      ["id": "cus_A", "object": "customer", "created": days(10), "name": "Zoë Ålund", "metadata": [:]],
      ["id": "cus_OLD", "object": "customer", "created": days(200), "name": "Old Timer"],
      subscription("sub_A", customer: "cus_A", status: "active", created: days(10)),
      subscription("sub_C", customer: "cus_A", status: "canceled", created: days(5)),
      subscription("sub_OLD", customer: "cus_OLD", status: "active", created: days(200)),
      [
        "id": "in_A", "object": "invoice", "created": days(10), "customer": "cus_A", "currency": "eur",
        "amount_paid": 999, "status": "paid",
        "parent": ["type": "subscription_details", "subscription_details": ["subscription": "sub_A"]],
        "_payments": [
          [
            "id": "inpay_A", "object": "invoice_payment", "invoice": "in_A", "amount_paid": 999,
            "status": "paid", "payment": ["type": "payment_intent", "payment_intent": "pi_A"],
          ]
        ],
      ],
      [
        "id": "in_R", "object": "invoice", "created": days(2), "customer": "cus_OLD", "currency": "eur",
        "amount_paid": 999, "status": "paid",
        "parent": ["type": "subscription_details", "subscription_details": ["subscription": "sub_OLD"]],
      ],
      charge("ch_A", created: days(10), transaction: "txn_A"),
      charge("ch_R", created: days(2), transaction: "txn_R"),
      [
        "id": "re_A", "object": "refund", "created": days(3), "charge": "ch_A", "amount": 500,
        "currency": "eur", "balance_transaction": "txn_RE", "status": "succeeded",
      ],
      [
        "id": "dp_A", "object": "dispute", "created": days(1), "charge": "ch_R", "amount": 999,
        "currency": "eur", "status": "needs_response", "balance_transactions": [],
      ],
      transaction("txn_A", created: days(10), amount: 999, fee: 59),
      transaction("txn_R", created: days(2), amount: 999, fee: 59),
      transaction("txn_RE", created: days(3), amount: -500, fee: 0),
    ]
    for n in 0..<120 {
      out.append([
        "id": String(format: "cus_P%03d", n), "object": "customer", "created": days(20) + Int64(n),
        "name": "Person \(n)",
      ])
    }
    return out
  }

  func charge(_ id: String, created: Int64, transaction: String) -> [String: Any] {
    [
      "id": id, "object": "charge", "created": created, "customer": id == "ch_A" ? "cus_A" : "cus_OLD",
      "amount": 999, "amount_refunded": 0, "currency": "eur", "paid": true, "status": "succeeded",
      "payment_intent": "pi_" + id.dropFirst(3), "balance_transaction": transaction, "livemode": false,
    ]
  }

  func transaction(_ id: String, created: Int64, amount: Int, fee: Int) -> [String: Any] {
    [
      "id": id, "object": "balance_transaction", "created": created, "amount": amount, "fee": fee,
      "net": amount - fee, "currency": "eur", "exchange_rate": 0.912345678901, "reporting_category": "charge",
    ]
  }

  /// Events: one of yesterday naming sub_A (already listed), one of 40 days ago (Stripe no longer has it).
  func events() -> [[String: Any]] {
    [
      event(
        "evt_1", created: days(1), type: "customer.subscription.updated",
        object: ["id": "sub_A", "object": "subscription"]),
      event(
        "evt_OLD", created: days(40), type: "charge.succeeded", object: ["id": "ch_GONE", "object": "charge"]),
    ]
  }

  func event(_ id: String, created: Int64, type: String, object: [String: Any]) -> [String: Any] {
    [
      "id": id, "object": "event", "api_version": "2024-06-20", "created": created, "type": type,
      "data": ["object": object], "livemode": false, "pending_webhooks": 0,
    ]
  }

  /// Balance report rows (amounts in major units, as Stripe's CSV writes them).
  func balance() -> [[String: Any]] {
    [
      row(
        "txn_A", created: days(10), gross: "9.99", fee: "0.59", net: "9.40", category: "charge",
        charge: "ch_A"),
      row(
        "txn_RE", created: days(3), gross: "-5.00", fee: "0.00", net: "-5.00", category: "refund",
        charge: "ch_A"),
      row(
        "txn_OLD", created: days(80), gross: "9.99", fee: "0.59", net: "9.40", category: "charge",
        charge: "ch_X"),
    ]
  }

  func row(
    _ id: String, created: Int64, gross: String, fee: String, net: String, category: String, charge: String
  ) -> [String: Any] {
    [
      "_created": created, "balance_transaction_id": id, "created_utc": Self.utc(created), "currency": "eur",
      "gross": gross, "fee": fee, "net": net, "reporting_category": category, "charge_id": charge,
      "source_id": charge, "automatic_payout_id": "po_1",
    ]
  }

  /// Stripe's data reach the start of yesterday (UTC).
  var availableEnd: Int64 { (now / 86_400 - 1) * 86_400 }

  func report(pendingPolls: Int = 2) -> [String: Any] {
    ["data_available_start": days(90), "data_available_end": availableEnd, "pendingPolls": pendingPolls]
  }

  static func utc(_ seconds: Int64) -> String {
    let day = CivilDate(daysSinceEpoch: seconds / 86_400)
    let rest = seconds % 86_400
    return String(format: "%@ %02lld:%02lld:%02lld", day.description, rest / 3600, rest / 60 % 60, rest % 60)
  }

  /// The months (`YYYY-MM`) a first fetch of `backfillDays` fetches the report of.
  func reportMonths(backfillDays: Int64 = 30) -> [String] {
    var out: [String] = []
    var day = CivilDate(daysSinceEpoch: (now - backfillDays * 86_400) / 86_400)
    day = CivilDate(year: day.year, month: day.month, day: 1)
    while day.daysSinceEpoch * 86_400 < availableEnd {
      out.append(String(day.description.prefix(7)))
      day =
        day.month == 12
        ? CivilDate(year: day.year + 1, month: 1, day: 1)
        : CivilDate(year: day.year, month: day.month + 1, day: 1)
    }
    return out
  }

  // MARK: Fixtures, log, files

  func write(_ name: String, _ json: Any) throws {
    let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
    try data.write(to: fixtures.appendingPathComponent(name))
  }

  /// Sets the failures to inject (see the script), replacing the previous ones.
  func faults(_ faults: [String: Any]) throws { try write("faults.json", faults) }

  /// Every request the server answered, in order.
  func log() -> [[String: Any]] {
    let text = (try? String(contentsOf: fixtures.appendingPathComponent("log.jsonl"), encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  /// The requests whose path is `path`.
  func requests(_ path: String) -> [[String: Any]] { log().filter { $0["path"] as? String == path } }

  /// The compact text of object `id` as the server last served it.
  func served(_ id: String) -> String? {
    try? String(contentsOf: fixtures.appendingPathComponent("served/\(id).json"), encoding: .utf8)
  }

  /// The config's `fetch` object for this server.
  func fetchObject(stripe: [String: Any] = [:]) -> [String: Any] {
    var settings: [String: Any] = ["apiKeyFile": keyFile.lastPathComponent]
    for (key, value) in stripe { settings[key] = value }
    return [
      "into": "fetched", "caFile": URL(fileURLWithPath: certificate.certificate).lastPathComponent,
      "stripeURL": baseURL, "stripeFilesURL": baseURL, "requestsPerSecond": 1000.0, "stripe": settings,
    ]
  }

  /// `storerecon fetch stripe` in-process on `clock` (the real time, never waiting); the progress lines
  /// come back.
  func fetch(
    stripe: [String: Any] = [:], environment: [String: String] = [:], clock: RecordingClock? = nil
  ) throws(FetchError) -> ([FetchReport], [String]) {
    guard
      let config = try FetchConfig.parse(
        fetchObject(stripe: stripe), baseDirectory: directory.path, name: "t")
    else { throw FetchError(.config, "no fetch object") }
    let progress = MemoryProgress()
    let reports = try FetchRun.execute(
      ["stripe"], config: config, known: KnownKeys(), asOf: CivilDate(daysSinceEpoch: now / 86_400),
      progress: progress, environment: environment,
      clock: clock ?? RecordingClock(time: Double(now)))
    return (reports, progress.lines)
  }

  /// The text of a fetched file, or nil.
  func fetched(_ relative: String) -> String? {
    try? String(contentsOf: into.appendingPathComponent(relative), encoding: .utf8)
  }

  /// The file names of the journal in `folder` (`stripe/objects`), sorted.
  func journal(_ folder: String = "stripe/objects") -> [String] {
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: into.appendingPathComponent(folder).path)) ?? []
    return names.filter { $0.hasSuffix(".jsonl") }.sorted()
  }

  /// The lines of the journal in `folder`, its files in order (an object's later line is its later state).
  func lines(_ folder: String = "stripe/objects") -> [String] {
    journal(folder).flatMap { (fetched(folder + "/" + $0) ?? "").split(separator: "\n").map(String.init) }
  }

  /// The decoded objects of the objects' journal by id (each its last line).
  func objectsById() -> [String: [String: Any]] {
    var out: [String: [String: Any]] = [:]
    for line in lines() {
      if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let id = object["id"] as? String
      {
        out[id] = object
      }
    }
    return out
  }

  /// Every file under `fetch.into` (but `.lock`) with its bytes.
  func snapshot() -> [String: Data] {
    guard let walker = FileManager.default.enumerator(atPath: into.path) else { return [:] }
    var out: [String: Data] = [:]
    while let path = walker.nextObject() as? String {
      var isDirectory: ObjCBool = false
      let url = into.appendingPathComponent(path)
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
        path != ".lock"
      {
        out[path] = try? Data(contentsOf: url)
      }
    }
    return out
  }

  /// Where the key shows in `texts` or in any fetched file: the whole key, or its random part.
  func leaks(in texts: [String]) -> [String] {
    var haystacks = texts
    for (_, data) in snapshot() { haystacks.append(String(decoding: data, as: UTF8.self)) }
    let secretPart = String(Self.key.dropFirst("rk_test_".count).dropLast(4))
    return haystacks.filter { $0.contains(Self.key) || $0.contains(secretPart) || $0.contains("0000abcd") }
  }

  func remove() {
    LoopbackScript.stop(process)
    try? FileManager.default.removeItem(at: directory)
  }
}
