/// The fast path for the common App Store line: a flat decoded transaction object with plain values.
///
/// It reads the fields straight from the line's bytes (no tree, no dictionary) and returns `nil`
/// whenever the line needs anything unusual — a JWS, a wrapper, an escape, a field of an unexpected
/// type, a missing required field, an inexact amount — so that the full path decides and words the
/// rejection. For every line it accepts, it yields exactly what the full path yields (a test compares
/// the two on generated worlds).
struct AppStoreFastPath {
  private let interner = StringInterner()

  /// The record for a plain transaction line, or `nil` to send the line down the full path.
  func transaction(_ line: UnsafeBufferPointer<UInt8>, origin: Origin) -> StoreTransaction? {
    guard line.first == 0x7B else { return nil }
    var originalTransactionId: UnsafeBufferPointer<UInt8>?
    var transactionId: UnsafeBufferPointer<UInt8>?
    var productId: UnsafeBufferPointer<UInt8>?
    var purchaseDate: Int64?
    var originalPurchaseDate: Int64?
    var expiresDate: Int64?
    var revocationDate: Int64?
    var price: Int64?
    var currency: UnsafeBufferPointer<UInt8>?
    var type: UnsafeBufferPointer<UInt8>?
    var offerDiscountType: UnsafeBufferPointer<UInt8>?
    var offerType: Int64?
    var environment: UnsafeBufferPointer<UInt8>?
    var ownership: UnsafeBufferPointer<UInt8>?
    var revocationType: UnsafeBufferPointer<UInt8>?
    var revocationReason: Int64?
    var revocationPercentage: Int64?
    var isUpgraded: Bool?
    var appAccountToken: UnsafeBufferPointer<UInt8>?
    var offerIdentifier: UnsafeBufferPointer<UInt8>?
    var transactionReason: UnsafeBufferPointer<UInt8>?
    var unusual = false

    let ok = FlatJSONScanner.scan(line) { key, value in
      // Text fields: a plain string (or a number's text, as the full path accepts); empty = absent.
      func text() -> UnsafeBufferPointer<UInt8>? {
        switch value {
        case .string(let s), .number(let s): return s.isEmpty ? nil : s
        case .null: return nil
        default:
          unusual = true
          return nil
        }
      }
      // Whole numbers, including Unix milliseconds: plain integers only (fractions take the full path).
      func integer() -> Int64? {
        switch value {
        case .number(let s):
          guard let v = FlatJSONScanner.plainInt64(s) else {
            unusual = true
            return nil
          }
          return v
        case .null: return nil
        default:
          unusual = true
          return nil
        }
      }
      switch key.count {
      case 4:
        if FlatJSONScanner.equals(key, "type") {
          type = text()
        } else if FlatJSONScanner.equals(key, "data") {
          unusual = true  // a notification wrapper the full path unwraps
        }
      case 5:
        if FlatJSONScanner.equals(key, "price") { price = integer() }
      case 8:
        if FlatJSONScanner.equals(key, "currency") { currency = text() }
      case 9:
        if FlatJSONScanner.equals(key, "productId") { productId = text() } else if FlatJSONScanner.equals(key, "offerType") {
          offerType = integer()
        }
      case 10:
        if FlatJSONScanner.equals(key, "isUpgraded") {
          switch value {
          case .bool(let flag): isUpgraded = flag
          case .null: isUpgraded = nil
          default: unusual = true
          }
        }
      case 11:
        if FlatJSONScanner.equals(key, "environment") { environment = text() } else if FlatJSONScanner.equals(key, "expiresDate") {
          expiresDate = integer()
        }
      case 12:
        if FlatJSONScanner.equals(key, "purchaseDate") { purchaseDate = integer() }
      case 13:
        if FlatJSONScanner.equals(key, "transactionId") { transactionId = text() }
      case 14:
        if FlatJSONScanner.equals(key, "revocationDate") {
          revocationDate = integer()
        } else if FlatJSONScanner.equals(key, "revocationType") {
          revocationType = text()
        }
      case 15:
        if FlatJSONScanner.equals(key, "appAccountToken") {
          appAccountToken = text()
        } else if FlatJSONScanner.equals(key, "offerIdentifier") {
          offerIdentifier = text()
        }
      case 16:
        if FlatJSONScanner.equals(key, "revocationReason") { revocationReason = integer() }
      case 17:
        if FlatJSONScanner.equals(key, "offerDiscountType") {
          offerDiscountType = text()
        } else if FlatJSONScanner.equals(key, "transactionReason") {
          transactionReason = text()
        }
      case 18:
        if FlatJSONScanner.equals(key, "inAppOwnershipType") { ownership = text() }
      case 20:
        if FlatJSONScanner.equals(key, "originalPurchaseDate") {
          originalPurchaseDate = integer()
        } else if FlatJSONScanner.equals(key, "revocationPercentage") {
          revocationPercentage = integer()
        }
      case 21:
        if FlatJSONScanner.equals(key, "originalTransactionId") { originalTransactionId = text() }
      case 22:
        // A wrapper the full path unwraps.
        if FlatJSONScanner.equals(key, "signedTransactionInfo") { unusual = true }
      default:
        if FlatJSONScanner.equals(key, "signedPayload") || FlatJSONScanner.equals(key, "notificationType") {
          unusual = true
        }
      }
    }
    guard ok, !unusual, let originalTransactionId, let transactionId, let productId, let purchaseDate,
      let price, let currencyBytes = currency, let currency = Currency.named(bytes: currencyBytes),
      let amount = try? currency.minor(milliunits: price)
    else { return nil }
    for ms in [purchaseDate, originalPurchaseDate, expiresDate, revocationDate].compactMap({ $0 }) {
      guard ms > Instant.distantPast.ms, ms < Instant.distantFuture.ms else { return nil }
    }
    if let reason = revocationReason, Int(exactly: reason) == nil { return nil }

    var record = StoreTransaction(
      store: .appStore, kind: .purchase, chainKey: String(decoding: originalTransactionId, as: UTF8.self),
      transactionId: String(decoding: transactionId, as: UTF8.self), productId: interner.intern(productId),
      at: Instant(ms: purchaseDate), origin: origin)
    record.currency = currency
    record.amountMinor = amount
    record.originalAt = originalPurchaseDate.map(Instant.init(ms:))
    record.expiresAt = expiresDate.map(Instant.init(ms:))
    record.productTypeRaw = type.map { interner.intern($0) } ?? ""
    let freeTrial = offerDiscountType.map { FlatJSONScanner.equals($0, "FREE_TRIAL") } ?? false
    record.isTrial = freeTrial || (offerType == 1 && price == 0)
    if let environment {
      record.environment = FlatJSONScanner.equals(environment, "Production") ? .production : .sandbox
    }
    record.familyShared = ownership.map { FlatJSONScanner.equals($0, "FAMILY_SHARED") } ?? false
    record.revokedAt = revocationDate.map(Instant.init(ms:))
    record.revocationType = revocationType.map { interner.intern($0) }
    record.revocationReason = revocationReason.map { Int($0) }
    record.revocationPercentMilli = revocationPercentage
    record.isUpgraded = isUpgraded ?? false
    record.accountToken = appAccountToken.map { String(decoding: $0, as: UTF8.self) }
    record.offerId = offerIdentifier.map { interner.intern($0) }
    record.reason = transactionReason.map { interner.intern($0) }
    return record
  }
}
