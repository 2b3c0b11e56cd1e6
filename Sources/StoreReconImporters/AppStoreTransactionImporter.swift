import StoreReconPlatform
package import StoreReconCore
package import StoreReconIO

/// App Store transactions as JSON Lines (reference §1.1), one transaction per line.
///
/// A line is a decoded `JWSTransactionDecodedPayload` object; or a compact JWS
/// (`header.payload.signature`), bare or as a JSON string, whose payload is that object; or an object
/// holding the JWS in `signedTransactionInfo` (an API response), in `signedPayload` or
/// `data.signedTransactionInfo` (a notification). Every JWS on the way is verified by `verifier`
/// (``JWSVerifier``; docs/signatures.md) unless its mode is `off`.
package struct AppStoreTransactionImporter: StoreImporter {
  /// Checks the signatures.
  package let verifier: JWSVerifier
  /// The span a timestamp must fall in (``StoreTimeWindow``, from the run's T).
  package let window: StoreTimeWindow

  /// Creates the importer; by default it verifies against the pinned Apple root only.
  package init(verifier: JWSVerifier = JWSVerifier(mode: .verify), window: StoreTimeWindow = .standalone) {
    self.verifier = verifier
    self.window = window
  }

  /// What each packer of a batch read is given: the signature checks and the window.
  package struct Settings: Sendable {
    /// Checks the signatures.
    package var verifier: JWSVerifier
    /// The span a timestamp must fall in.
    package var window: StoreTimeWindow

    /// Settings of `verifier` and `window`.
    package init(verifier: JWSVerifier, window: StoreTimeWindow = .standalone) {
      self.verifier = verifier
      self.window = window
    }
  }

  /// Reads one JSON Lines file of App Store transactions.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (StoreTransaction) -> Void
  ) throws(InputError) -> InputCounts {
    let fast = AppStoreFastPath(window: window)
    let checker = JWSChecker(verifier)
    let window = self.window
    return try JSONLinesImport.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects, emit: emit
    ) { (line, origin) throws(RowRejection) -> StoreTransaction in
      if checker.mode != .require, let record = fast.transaction(line, origin: origin) { return record }
      let (record, verified) = try AppStoreTransactionImporter.transaction(
        line: line, origin: origin, checker: checker, window: window)
      if !verified { try checker.acceptUnverified() }
      return record
    }
  }

  /// Reads one JSON Lines file of App Store transactions straight into `builder`.
  package func read(
    path: String, displayName: String, rejects: any RejectSink, into builder: LedgerBuilder,
    chunkBytes: Int = JSONLinesBatchImport.chunkSize, threads: Int = Parallel.cores
  ) throws(InputError) -> PackedImport {
    try JSONLinesBatchImport.run(
      Packer.self, settings: Settings(verifier: verifier, window: window), path: path,
      displayName: displayName, rejects: rejects, into: builder,
      chunkBytes: chunkBytes,
      threads: threads)
  }

  /// Follows JWS strings and wrappers (`signedTransactionInfo`, `signedPayload`, `data`) down to the
  /// payload, verifying each JWS on the way; and whether one did verify.
  static func unwrap(_ value: JSONValue, depth: Int, checker: JWSChecker) throws(RowRejection)
    -> (JSONValue, verified: Bool)
  {
    guard depth < 4 else { throw RowRejection("JWS nested too deeply") }
    switch value {
    case .string(let compact):
      let payload = try decode(compact, field: "the line's JWS string", checker: checker)
      let (inner, _) = try unwrap(payload, depth: depth + 1, checker: checker)
      return (inner, checker.mode != .off)
    case .object:
      for key in ["signedTransactionInfo", "signedPayload"] {
        if let inner = value[key] {
          guard let compact = inner.stringValue else { throw RowRejection("\(key) is not a string") }
          let payload = try decode(compact, field: key, checker: checker)
          let (unwrapped, _) = try unwrap(payload, depth: depth + 1, checker: checker)
          return (unwrapped, checker.mode != .off)
        }
      }
      if let data = value["data"], data["signedTransactionInfo"] != nil {
        return try unwrap(data, depth: depth + 1, checker: checker)
      }
      if value["originalTransactionId"] == nil, let type = value["notificationType"]?.stringValue {
        throw RowRejection("notification \(type) carries no transaction")
      }
      return (value, false)
    default:
      throw RowRejection("expected a transaction object or a JWS, found \(value.brief)")
    }
  }

  /// The payload of the JWS `compact` held in `field`, verified (unless signatures are off) and parsed.
  private static func decode(_ compact: String, field: String, checker: JWSChecker) throws(RowRejection)
    -> JSONValue
  {
    let payload: [UInt8]
    do {
      payload = try checker.payload(compact)
    } catch {
      throw RowRejection("\(field) is not a valid JWS: \(error.reason)")
    }
    do {
      return try JSONParser.parse(payload)
    } catch {
      throw RowRejection("\(field) is not a valid JWS: JWS payload: \(error)")
    }
  }

  /// Maps a decoded `JWSTransactionDecodedPayload` to a purchase record.
  package static func transaction(
    from payload: JSONValue, origin: Origin, window: StoreTimeWindow = .standalone
  ) throws(RowRejection) -> StoreTransaction {
    guard case .object = payload else {
      throw RowRejection("expected a transaction object, found \(payload.brief)")
    }
    let chainKey = try payload.requiredText("originalTransactionId")
    let transactionId = try payload.requiredText("transactionId")
    let productId = try payload.requiredText("productId")
    let at = try payload.requiredMillis("purchaseDate", within: window)
    var record = StoreTransaction(
      store: .appStore, kind: .purchase, chainKey: chainKey, transactionId: transactionId,
      productId: productId,
      at: at, origin: origin)
    // No price at all (Xcode StoreKit testing, older transactions): an unpriced charge. It still proves
    // the purchase and backs access; revenue leaves it out (docs/inputs.md).
    var milliunits: Int64 = 0
    if let priceValue = payload["price"], priceValue != .null {
      guard let value = priceValue.int64Value else {
        throw RowRejection("price '\(priceValue.brief)' is not a whole number of milliunits")
      }
      guard value >= 0 else { throw RowRejection("price '\(priceValue.brief)' is negative") }
      milliunits = value
      let currency = try StoreCurrency.named(try payload.requiredText("currency"))
      record.currency = currency
      record.amountMinor = try StoreCurrency.convert { () throws(MoneyError) -> Int64 in
        try currency.minor(milliunits: value)
      }
    }
    record.originalAt = try payload.optionalMillis("originalPurchaseDate", within: window)
    record.expiresAt = try payload.optionalMillis("expiresDate", within: window)
    record.productTypeRaw = try payload.optionalText("type") ?? ""
    let offerDiscountType = try payload.optionalText("offerDiscountType")
    let offerType = try payload.optionalInt64("offerType")
    record.isTrial = offerDiscountType == "FREE_TRIAL" || (offerType == 1 && milliunits == 0)
    if let environment = try payload.optionalText("environment") {
      record.environment = environment == "Production" ? .production : .sandbox
    }
    record.familyShared = try payload.optionalText("inAppOwnershipType") == "FAMILY_SHARED"
    record.revokedAt = try payload.optionalMillis("revocationDate", within: window)
    record.revocationType = try payload.optionalText("revocationType")
    if let reason = try payload.optionalInt64("revocationReason") {
      guard let small = Int(exactly: reason) else {
        throw RowRejection("revocationReason '\(reason)' is out of range")
      }
      record.revocationReason = small
    }
    record.revocationPercentMilli = try payload.optionalInt64("revocationPercentage")
    record.isUpgraded = try payload.optionalBool("isUpgraded") ?? false
    record.commitment = try CommitmentFields.appStore(payload, window: window)
    record.accountToken = try payload.optionalText("appAccountToken")
    record.offerId = try payload.optionalText("offerIdentifier")
    record.reason = try payload.optionalText("transactionReason")
    if let storefront = try payload.optionalText("storefront") {
      record.country = CountryCode.pack(storefront)
    }
    if let quantity = try payload.optionalInt64("quantity") {
      guard let units = UInt16(exactly: quantity), units > 0 else {
        throw RowRejection("quantity '\(quantity)' is not a whole number from 1 to 65535")
      }
      record.quantity = units
    }
    return record
  }
}
