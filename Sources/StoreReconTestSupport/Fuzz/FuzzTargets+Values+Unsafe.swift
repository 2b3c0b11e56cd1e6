// Safety: `data` is the fuzzer's input, valid during the call and never kept; the read buffer is an array's
// own storage inside the closure.

import Foundation
import StoreReconCore
import StoreReconIO
import StoreReconImporters

// The targets below the importers: JSON scanners, JWS, compressed containers, and value parsers.
extension FuzzTargets {
  /// JSON: the strict parser, and the scanners the fast paths use, which must never accept what the
  /// parser rejects.
  static func json(_ data: UnsafeBufferPointer<UInt8>) {
    let parsed = try? JSONParser.parse(data)
    let flat = FlatJSONScanner.scan(data) { _, _ in }
    if flat && parsed == nil { fail("json", "FlatJSONScanner takes text the parser rejects") }
    if JSONSpanScanner.validate(data) != nil && parsed == nil {
      fail("json", "JSONSpanScanner takes text the parser rejects")
    }
  }

  /// A compact JWS: its payload, and the App Store line it makes with signatures verified.
  static func jws(_ data: UnsafeBufferPointer<UInt8>) {
    _ = JWS.payload(data)
    let checker = JWSChecker(JWSVerifier(mode: .verify))
    _ = try? AppStoreTransactionImporter.transaction(
      line: FastPathCheck.trimmed(data), origin: Origin(file: 0, line: 1), checker: checker)
  }

  /// gzip and zip containers (the first byte choosing the file name): opened and read to the end, at
  /// most 16 MiB of text.
  static func compressed(_ data: UnsafeBufferPointer<UInt8>) {
    guard let choice = data.first else { return }
    let name = ["in.gz", "in.zip", "in.csv"][Int(choice % 3)]
    guard let path = file(name, UnsafeBufferPointer(rebasing: data.dropFirst())),
      let source = try? InputBytes.open(path: path)
    else { return }
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var total = 0
    while total < 16 << 20 {
      let n = buffer.withUnsafeMutableBufferPointer { (try? source.read(into: $0)) ?? 0 }
      if n == 0 { break }
      total += n
    }
  }

  /// Timestamps, dates, decimals and whole numbers as the importers parse them; the byte and text
  /// forms of a parser must agree.
  static func values(_ data: UnsafeBufferPointer<UInt8>) {
    let text = String(decoding: data, as: UTF8.self)
    let fromBytes = Instant.parseISO8601(data)
    if text.utf8.elementsEqual(data), fromBytes != Instant.parseISO8601(text) {
      fail("values", "parseISO8601 of bytes and of text differ")
    }
    _ = CivilDate.parse(text)
    _ = try? DecimalRate.parse(text)
    _ = BillingPeriod.parse(text)
    _ = ByteText.int64(data)
    _ = JSONNumber.exactInt64(text)
    _ = JSONNumber.roundedInt64(text)
    for code in ["USD", "JPY", "KWD", "CLF"] {
      guard let currency = Currency.named(code) else { continue }
      _ = try? currency.minor(decimalBytes: data)
    }
  }
}
