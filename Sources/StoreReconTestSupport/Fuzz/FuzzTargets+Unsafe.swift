// Safety: the input is libFuzzer's (or a kept file's) buffer, read only during one target call and never
// kept; one target runs at a time (a lock); the buffers made here are arrays read inside their closures.

import Foundation
package import StoreReconCore
package import StoreReconIO
package import StoreReconImporters

/// The bodies of the libFuzzer targets (Fuzz/, scripts/fuzz, docs/fuzzing.md): each takes one input
/// and stops the process (`fatalError`) when a property fails, so that libFuzzer keeps the input; a
/// sanitizer report stops it too. The regression tests replay kept inputs through the same functions.
package enum FuzzTargets {
  /// The target names, in the order `scripts/fuzz` runs them (`approws` lives in Fuzz/, beside
  /// StoreReconAppRows, which this target does not depend on).
  package static let names = [
    "appstore", "subscriptions", "voided", "sales", "reports", "json", "jws", "compressed", "values",
    "money",
  ]

  /// One target at a time: the targets that read files share ``folder`` and its file names, and the
  /// regression tests replay inputs from several threads at once (libFuzzer calls from one).
  static let serial = NSLock()

  /// Runs target `name` on `data`; `false` for an unknown name.
  package static func run(_ name: String, _ data: UnsafeBufferPointer<UInt8>) -> Bool {
    serial.lock()
    defer { serial.unlock() }
    switch name {
    case "appstore": appStore(data)
    case "subscriptions": subscriptions(data)
    case "voided": voided(data)
    case "sales": sales(data)
    case "reports": reports(data)
    case "json": json(data)
    case "jws": jws(data)
    case "compressed": compressed(data)
    case "values": values(data)
    case "money": money(data)
    case "notifications": notifications(Array(data))
    default: return false
    }
    return true
  }

  /// Runs target `name` on `bytes` (the regression tests' replay); `false` for an unknown name.
  package static func run(_ name: String, bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { run(name, $0) }
  }

  /// The lines of `data` (at most 64: the property is per line; more only slows the fuzzer).
  static func lines(_ data: UnsafeBufferPointer<UInt8>) -> [[UInt8]] {
    data.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(64).map { Array($0) }
  }

  /// Stops the process with `why` (libFuzzer keeps the input as a crash).
  static func fail(_ target: String, _ why: String) -> Never {
    fatalError("\(target): \(why)")
  }

  /// A folder for the targets that read files, made once per process.
  nonisolated(unsafe) static var folder: TempDir? = try? TempDir()

  /// `data` written to `name` in ``folder``: its path.
  static func file(_ name: String, _ data: UnsafeBufferPointer<UInt8>) -> String? {
    try? folder?.write(name, bytes: Array(data))
  }

  /// App Store lines: the fast path against the full path, line by line and in one batch; the full path
  /// and the batch packer with signatures verified (JWS lines against the pinned root).
  static func appStore(_ data: UnsafeBufferPointer<UInt8>) {
    let lines = lines(data)
    let verifying = JWSChecker(JWSVerifier(mode: .verify))
    var packer = AppStoreTransactionImporter.Packer(settings: JWSVerifier(mode: .verify))
    let batch = RecordBatch()
    for line in lines {
      if case .mismatch(let why) = FastPathCheck.appStore(line) { fail("appstore", why) }
      line.withUnsafeBufferPointer { bytes in
        _ = try? AppStoreTransactionImporter.transaction(
          line: bytes, origin: Origin(file: 0, line: 1), checker: verifying)
        try? packer.pack(FastPathCheck.trimmed(bytes), into: batch)
      }
    }
    if let why = FastPathCheck.appStoreBatch(lines) { fail("appstore", why) }
  }

  /// `subscriptionsv2` lines: the fast path against the full parser, line by line and in one batch.
  static func subscriptions(_ data: UnsafeBufferPointer<UInt8>) {
    let lines = lines(data)
    for line in lines {
      if case .mismatch(let why) = FastPathCheck.playSubscription(line) { fail("subscriptions", why) }
    }
    if let why = FastPathCheck.playSubscriptionBatch(lines) { fail("subscriptions", why) }
  }

  /// Voided purchases: the full parser and the batch packer (there is no fast path).
  static func voided(_ data: UnsafeBufferPointer<UInt8>) {
    var packer = PlayVoidedPurchaseImporter.Packer()
    let batch = RecordBatch()
    for line in lines(data) {
      line.withUnsafeBufferPointer { bytes in
        _ = try? PlayVoidedPurchaseImporter.transaction(
          from: try JSONLinesImport.parse(bytes), origin: Origin(file: 0, line: 1))
        try? packer.pack(FastPathCheck.trimmed(bytes), into: batch)
      }
    }
    _ = RecordText.describe(batch)
  }

  /// A Play sales report: the fast path against the full row mapping (row by row and in one batch), and
  /// the chunked import of the file against the line-by-line reader (records, rejects, counts).
  static func sales(_ data: UnsafeBufferPointer<UInt8>) {
    let bytes = Array(data)
    for verdict in FastPathCheck.playSales(bytes) {
      if case .mismatch(let why) = verdict { fail("sales", why) }
    }
    if let why = FastPathCheck.playSalesBatch(bytes) { fail("sales", why) }
    guard let path = file("salesreport_202611.csv", data) else { return }
    let sequential = try? ImportComparison.sequential([("sales", path)])
    let chunk = 61 + Int(data.first ?? 0)
    let packed = try? ImportComparison.packed([("sales", path)], chunkBytes: chunk, threads: 1)
    if sequential != packed {
      fail(
        "sales", "chunked import differs: \(String(describing: packed)) vs \(String(describing: sequential))")
    }
  }

  /// The store reports (Apple Sales, Subscriber, Financial; Play earnings), the first byte choosing.
  static func reports(_ data: UnsafeBufferPointer<UInt8>) {
    guard let choice = data.first,
      let path = file("report.txt", UnsafeBufferPointer(rebasing: data.dropFirst()))
    else { return }
    var rows = StoreReportRows()
    let rejects = RejectList()
    switch choice % 4 {
    case 0:
      _ = try? AppleSalesReportImporter().read(
        path: path, displayName: "r", fileIndex: 0, rejects: rejects, into: &rows)
    case 1:
      _ = try? AppleSubscriberReportImporter().read(
        path: path, displayName: "r", fileIndex: 0, rejects: rejects, into: &rows)
    case 2:
      _ = try? AppleFinancialReportImporter().read(
        path: path, displayName: "r", fileIndex: 0, rejects: rejects, into: &rows)
    default:
      _ = try? PlayEarningsReportImporter().read(
        path: path, displayName: "r", fileIndex: 0, rejects: rejects, into: &rows)
    }
  }
}
