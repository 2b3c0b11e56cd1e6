// Safety: the fields are spans of the caller's line found by FlatJSONScanner (inside the line, valid during
// `pack` only); everything a record keeps is copied or interned before the call returns; memcmp runs only on
// two buffers of equal count.

import StoreReconPlatform
package import StoreReconCore
package import StoreReconIO

/// The fast path for the common App Store line: a flat decoded transaction object with plain values.
///
/// It reads the fields straight from the line's bytes (no tree, no dictionary) and returns `nil`
/// whenever the line needs anything unusual — a JWS, a wrapper, an escape, a field of an unexpected
/// type, a missing required field, an inexact amount — so that the full path decides and words the
/// rejection. For every line it accepts, it yields exactly what the full path yields (a test compares
/// the two on generated worlds, and LineVariants' variants in the differential tests and fuzzers).
package struct AppStoreFastPath {
  private let interner = StringInterner()
  /// The span a timestamp must fall in (``StoreTimeWindow``, from the run's T).
  let window: StoreTimeWindow

  /// A fast path with its own interner of product and type names, reading times within `window`.
  package init(window: StoreTimeWindow = .standalone) { self.window = window }

  /// The fields of a plain transaction line, as spans of the line and plain integers, checked as the
  /// full path checks them.
  struct Fields {
    var originalTransactionId: UnsafeBufferPointer<UInt8>
    var transactionId: UnsafeBufferPointer<UInt8>
    var productId: UnsafeBufferPointer<UInt8>
    var purchaseDate: Int64
    var originalPurchaseDate: Int64?
    var expiresDate: Int64?
    var revocationDate: Int64?
    var price: Int64
    var currency: Currency
    var amount: Int64
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
    /// ``CountryCode`` of `storefront` (0 unknown) and `quantity` (1 when absent).
    var country: UInt16
    var quantity: UInt16

    /// A free trial: `FREE_TRIAL`, or an introductory offer (type 1) at price 0.
    var isTrial: Bool {
      let freeTrial = offerDiscountType.map { FlatJSONScanner.equals($0, "FREE_TRIAL") } ?? false
      return freeTrial || (offerType == 1 && price == 0)
    }

    var isProduction: Bool { environment.map { FlatJSONScanner.equals($0, "Production") } ?? true }
    var isFamilyShared: Bool { ownership.map { FlatJSONScanner.equals($0, "FAMILY_SHARED") } ?? false }
  }

  /// The fields of a plain transaction line, or `nil` to send the line down the full path.
  /// The fields a line names, as the scan finds them (absent: `nil`).
  struct Scanned {
    var originalTransactionId: UnsafeBufferPointer<UInt8>? = nil
    var transactionId: UnsafeBufferPointer<UInt8>? = nil
    var productId: UnsafeBufferPointer<UInt8>? = nil
    var purchaseDate: Int64? = nil
    var originalPurchaseDate: Int64? = nil
    var expiresDate: Int64? = nil
    var revocationDate: Int64? = nil
    var price: Int64? = nil
    var currency: UnsafeBufferPointer<UInt8>? = nil
    var type: UnsafeBufferPointer<UInt8>? = nil
    var offerDiscountType: UnsafeBufferPointer<UInt8>? = nil
    var offerType: Int64? = nil
    var environment: UnsafeBufferPointer<UInt8>? = nil
    var ownership: UnsafeBufferPointer<UInt8>? = nil
    var revocationType: UnsafeBufferPointer<UInt8>? = nil
    var revocationReason: Int64? = nil
    var revocationPercentage: Int64? = nil
    var isUpgraded: Bool? = nil
    var appAccountToken: UnsafeBufferPointer<UInt8>? = nil
    var offerIdentifier: UnsafeBufferPointer<UInt8>? = nil
    var transactionReason: UnsafeBufferPointer<UInt8>? = nil
    var storefront: UnsafeBufferPointer<UInt8>? = nil
    var quantity: Int64? = nil
  }

  static func scan(_ line: UnsafeBufferPointer<UInt8>, window: StoreTimeWindow) -> Fields? {
    guard line.first == 0x7B else { return nil }
    var s = Scanned()
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
        if FlatJSONScanner.equals(key, "type") { s.type = text() }
      case 5:
        if FlatJSONScanner.equals(key, "price") { s.price = integer() }
      case 8:
        if FlatJSONScanner.equals(key, "currency") {
          s.currency = text()
        } else if FlatJSONScanner.equals(key, "quantity") {
          s.quantity = integer()
        }
      case 9:
        if FlatJSONScanner.equals(key, "productId") {
          s.productId = text()
        } else if FlatJSONScanner.equals(key, "offerType") {
          s.offerType = integer()
        }
      case 10:
        if FlatJSONScanner.equals(key, "storefront") {
          s.storefront = text()
        } else if FlatJSONScanner.equals(key, "isUpgraded") {
          switch value {
          case .bool(let flag): s.isUpgraded = flag
          case .null: s.isUpgraded = nil
          default: unusual = true
          }
        }
      case 11:
        if FlatJSONScanner.equals(key, "environment") {
          s.environment = text()
        } else if FlatJSONScanner.equals(key, "expiresDate") {
          s.expiresDate = integer()
        }
      case 12:
        if FlatJSONScanner.equals(key, "purchaseDate") { s.purchaseDate = integer() }
      case 13:
        if FlatJSONScanner.equals(key, "transactionId") { s.transactionId = text() }
      case 14:
        if FlatJSONScanner.equals(key, "revocationDate") {
          s.revocationDate = integer()
        } else if FlatJSONScanner.equals(key, "revocationType") {
          s.revocationType = text()
        }
      case 15:
        if FlatJSONScanner.equals(key, "appAccountToken") {
          s.appAccountToken = text()
        } else if FlatJSONScanner.equals(key, "offerIdentifier") {
          s.offerIdentifier = text()
        }
      case 16:
        if FlatJSONScanner.equals(key, "revocationReason") { s.revocationReason = integer() }
      case 17:
        if FlatJSONScanner.equals(key, "offerDiscountType") {
          s.offerDiscountType = text()
        } else if FlatJSONScanner.equals(key, "transactionReason") {
          s.transactionReason = text()
        }
      case 18:
        if FlatJSONScanner.equals(key, "inAppOwnershipType") { s.ownership = text() }
      case 20:
        if FlatJSONScanner.equals(key, "originalPurchaseDate") {
          s.originalPurchaseDate = integer()
        } else if FlatJSONScanner.equals(key, "revocationPercentage") {
          s.revocationPercentage = integer()
        }
      case 21:
        if FlatJSONScanner.equals(key, "originalTransactionId") { s.originalTransactionId = text() }
      default:
        break
      }
      if AppStoreFastPath.isWrapper(key) || AppStoreFastPath.isCommitment(key) { unusual = true }
    }
    guard ok, !unusual else { return nil }
    return Fields(s, window: window)
  }
}

extension AppStoreFastPath.Fields {
  /// The fields of a scanned line, checked as the full path checks them; `nil` for the full path.
  init?(_ s: AppStoreFastPath.Scanned, window: StoreTimeWindow) {
    guard let originalTransactionId = s.originalTransactionId, let transactionId = s.transactionId,
      let productId = s.productId, let purchaseDate = s.purchaseDate,
      let price = s.price, price >= 0, let currencyBytes = s.currency,
      let currency = Currency.named(bytes: currencyBytes),
      let amount = try? currency.minor(milliunits: price)
    else { return nil }
    @inline(__always) func inRange(_ ms: Int64?) -> Bool {
      guard let ms else { return true }
      return window.contains(ms)
    }
    guard inRange(purchaseDate), inRange(s.originalPurchaseDate), inRange(s.expiresDate),
      inRange(s.revocationDate)
    else { return nil }
    if let reason = s.revocationReason, Int(exactly: reason) == nil { return nil }
    var units: UInt16 = 1
    if let quantity = s.quantity {
      guard let exact = UInt16(exactly: quantity), exact > 0 else { return nil }
      units = exact
    }
    self.init(
      originalTransactionId: originalTransactionId, transactionId: transactionId, productId: productId,
      purchaseDate: purchaseDate, originalPurchaseDate: s.originalPurchaseDate, expiresDate: s.expiresDate,
      revocationDate: s.revocationDate, price: price, currency: currency, amount: amount, type: s.type,
      offerDiscountType: s.offerDiscountType, offerType: s.offerType, environment: s.environment,
      ownership: s.ownership, revocationType: s.revocationType, revocationReason: s.revocationReason,
      revocationPercentage: s.revocationPercentage, isUpgraded: s.isUpgraded,
      appAccountToken: s.appAccountToken, offerIdentifier: s.offerIdentifier,
      transactionReason: s.transactionReason, country: s.storefront.map(AppStoreFastPath.country) ?? 0,
      quantity: units)
  }
}

extension AppStoreFastPath {
  /// Whether `key` names a wrapper the full path unwraps (or a notification it rejects as carrying no
  /// transaction): `data`, `signedPayload`, `notificationType` or `signedTransactionInfo`. (Checked
  /// apart from the field switch, which once missed three of them by their length.)
  /// The first byte is compared first: the fields of the same lengths (`type`, `transactionId`,
  /// `revocationReason`, `originalTransactionId`) are on every line and start with other letters.
  @inline(__always)
  static func isWrapper(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
    switch key.count {
    case 4: return key[0] == 0x64 && FlatJSONScanner.equals(key, "data")
    case 13: return key[0] == 0x73 && FlatJSONScanner.equals(key, "signedPayload")
    case 16: return key[0] == 0x6E && FlatJSONScanner.equals(key, "notificationType")
    case 21: return key[0] == 0x73 && FlatJSONScanner.equals(key, "signedTransactionInfo")
    default: return false
    }
  }

  /// Whether `key` names a commitment-plan field (`billingPlanType`, `commitmentInfo`), which the full
  /// path reads.
  @inline(__always)
  static func isCommitment(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
    switch key.count {
    case 14: return key[0] == 0x63 && FlatJSONScanner.equals(key, "commitmentInfo")
    case 15: return key[0] == 0x62 && FlatJSONScanner.equals(key, "billingPlanType")
    default: return false
    }
  }

  /// The packed ``CountryCode`` of a storefront as the full path reads it (``CountryCode/pack(_:)``):
  /// three letters as alpha-3 (Apple's form), two as alpha-2, anything else 0.
  static func country(_ storefront: UnsafeBufferPointer<UInt8>) -> UInt16 {
    storefront.count == 3 ? CountryCode.pack(alpha3: storefront) : CountryCode.pack(alpha2: storefront)
  }
}

extension AppStoreFastPath {

  /// The record for a plain transaction line, or `nil` to send the line down the full path.
  package func transaction(_ line: UnsafeBufferPointer<UInt8>, origin: Origin) -> StoreTransaction? {
    guard let f = AppStoreFastPath.scan(line, window: window) else { return nil }

    var record = StoreTransaction(
      store: .appStore, kind: .purchase, chainKey: String(decoding: f.originalTransactionId, as: UTF8.self),
      transactionId: String(decoding: f.transactionId, as: UTF8.self),
      productId: interner.intern(f.productId),
      at: Instant(ms: f.purchaseDate), origin: origin)
    record.currency = f.currency
    record.amountMinor = f.amount
    record.originalAt = f.originalPurchaseDate.map(Instant.init(ms:))
    record.expiresAt = f.expiresDate.map(Instant.init(ms:))
    record.productTypeRaw = f.type.map { interner.intern($0) } ?? ""
    record.isTrial = f.isTrial
    record.environment = f.isProduction ? .production : .sandbox
    record.familyShared = f.isFamilyShared
    record.revokedAt = f.revocationDate.map(Instant.init(ms:))
    record.revocationType = f.revocationType.map { interner.intern($0) }
    record.revocationReason = f.revocationReason.map { Int($0) }
    record.revocationPercentMilli = f.revocationPercentage
    record.isUpgraded = f.isUpgraded ?? false
    record.accountToken = f.appAccountToken.map { String(decoding: $0, as: UTF8.self) }
    record.offerId = f.offerIdentifier.map { interner.intern($0) }
    record.reason = f.transactionReason.map { interner.intern($0) }
    record.country = f.country
    record.quantity = f.quantity
    return record
  }

  /// Packs a plain transaction line straight into `batch` (what the full path would add for it);
  /// `false` to send the line down the full path.
  package func pack(_ line: UnsafeBufferPointer<UInt8>, into batch: RecordBatch, cache: inout PackCache)
    -> Bool
  {
    guard let f = AppStoreFastPath.scan(line, window: window) else { return false }
    batch.noteInstant(f.purchaseDate)
    let type = f.type ?? UnsafeBufferPointer(start: nil, count: 0)
    let variant = cache.variant(
      product: f.productId, type: type, country: f.country, quantity: f.quantity, in: batch.products)
    var flags = PackedRecord.Flags(rawValue: f.isProduction ? 0 : PackedRecord.environmentBits(.sandbox))
    if f.isTrial { flags.insert(.trial) }
    if f.isFamilyShared { flags.insert(.familyShared) }
    if f.isUpgraded ?? false { flags.insert(.upgraded) }
    let number = batch.records.count
    if f.revocationDate != nil || f.revocationType != nil || f.revocationReason != nil
      || f.revocationPercentage != nil
    {
      flags.insert(.rare)
      let revocationType = f.revocationType.map { cache.text($0) }
      batch.rare[number] = RareFields(
        revokedAt: f.revocationDate.map(Instant.init(ms:)), revocationType: revocationType,
        revocationReason: f.revocationReason.map { Int($0) }, revocationPercentMilli: f.revocationPercentage,
        tax: nil, revocationTypeUpper: revocationType?.uppercased())
    }
    var token: UInt32 = 0
    if let t = f.appAccountToken { token = cache.token(t, in: batch.tokens) }
    let record = PackedRecord(
      at: f.purchaseDate, amount: f.amount, extra: f.expiresDate ?? PackedRecord.none,
      tx: CompactID(PackedID.intern(f.transactionId, in: batch.texts), pooling: batch.texts),
      variant: variant,
      currency: UInt16(truncatingIfNeeded: f.currency.tableIndex + 1), flags: flags)
    batch.records.append(record)
    batch.keys.append(PackedID.intern(f.originalTransactionId, in: batch.texts))
    batch.spaces.append(.appStore)
    batch.tokenNumbers.append(token)
    batch.originals.append(f.originalPurchaseDate ?? PackedRecord.none)
    return true
  }

  /// What packing remembers between lines of one batch: the product variants seen (a few products
  /// repeat on every line), the last account token (consecutive lines mostly repeat it), and short texts
  /// already made.
  package struct PackCache {
    /// Product and type bytes with their variant, for the batch's product table.
    private var variants: [(product: [UInt8], type: [UInt8], place: UInt32, variant: UInt32)] = []
    private var products: ProductNames?
    private var lastToken: [UInt8] = []
    private var lastTokenNumber: UInt32 = 0
    private var lastTokens: TextPool?
    private var texts: [[UInt8]: String] = [:]

    /// An empty cache.
    package init() {}

    @inline(__always)
    static func same(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
      guard a.count == b.count else { return false }
      return a.withUnsafeBufferPointer { x in
        guard let p = x.baseAddress, let q = b.baseAddress else { return true }
        return Memory.memcmp(p, q, a.count) == 0
      }
    }

    /// The App Store variant of `product`, raw `type`, `country` and `quantity` in `table`.
    @inline(__always)
    mutating func variant(
      product p: UnsafeBufferPointer<UInt8>, type t: UnsafeBufferPointer<UInt8>, country: UInt16,
      quantity: UInt16, in table: ProductNames
    ) -> UInt32 {
      if products !== table {
        products = table
        variants.removeAll()
      }
      let place = UInt32(country) << 16 | UInt32(quantity)
      for entry in variants
      where entry.place == place && PackCache.same(entry.product, p) && PackCache.same(entry.type, t) {
        return entry.variant
      }
      let variant = table.variant(
        store: .appStore, name: table.name(p), type: table.type(t), country: country, quantity: quantity)
      if variants.count < 64 { variants.append((Array(p), Array(t), place, variant)) }
      return variant
    }

    /// The number + 1 of account token `t` in `pool`.
    @inline(__always)
    mutating func token(_ t: UnsafeBufferPointer<UInt8>, in pool: TextPool) -> UInt32 {
      if lastTokens === pool && PackCache.same(lastToken, t) { return lastTokenNumber }
      lastTokens = pool
      lastToken.removeAll(keepingCapacity: true)
      lastToken.append(contentsOf: t)
      lastTokenNumber = pool.intern(t) + 1
      return lastTokenNumber
    }

    /// A short text (a revocation type) as a shared `String`.
    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
      let key = Array(bytes)
      if let known = texts[key] { return known }
      let text = String(decoding: bytes, as: UTF8.self)
      texts[key] = text
      return text
    }
  }
}
