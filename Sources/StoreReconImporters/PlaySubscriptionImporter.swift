import StoreReconPlatform
package import StoreReconCore
package import StoreReconIO

/// Google Play subscriptions as JSON Lines: each line a `SubscriptionPurchaseV2` resource (reference
/// §4.1) with the token it was fetched by in a top-level `purchaseToken`.
///
/// Each line becomes a `status` record: the chain's current state, paid-through (latest line-item
/// expiry), product, linked token, account and order ids.
package struct PlaySubscriptionImporter: StoreImporter {
  /// The span a timestamp must fall in (``StoreTimeWindow``, from the run's T).
  package let window: StoreTimeWindow

  /// Creates the importer reading timestamps within `window`.
  package init(window: StoreTimeWindow = .standalone) { self.window = window }

  /// Reads one JSON Lines file of subscription resources.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (StoreTransaction) -> Void
  ) throws(InputError) -> InputCounts {
    try JSONLinesImport.run(
      path: path, displayName: displayName, fileIndex: fileIndex, rejects: rejects, emit: emit
    ) { (line, origin) throws(RowRejection) -> StoreTransaction in
      try PlaySubscriptionImporter.transaction(
        from: try JSONLinesImport.parse(line), origin: origin, window: window)
    }
  }

  /// Reads one JSON Lines file of subscription resources straight into `builder`.
  package func read(
    path: String, displayName: String, rejects: any RejectSink, into builder: LedgerBuilder,
    chunkBytes: Int = JSONLinesBatchImport.chunkSize, threads: Int = Parallel.cores
  ) throws(InputError) -> PackedImport {
    try JSONLinesBatchImport.run(
      Packer.self, settings: window, path: path, displayName: displayName, rejects: rejects, into: builder,
      chunkBytes: chunkBytes,
      threads: threads)
  }

  /// States that mean no money has moved yet.
  static let pendingStates: Set<String> = [
    "SUBSCRIPTION_STATE_PENDING", "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED",
  ]

  /// Maps one `SubscriptionPurchaseV2` (plus `purchaseToken`) to a status record.
  package static func transaction(
    from resource: JSONValue, origin: Origin, window: StoreTimeWindow = .standalone
  ) throws(RowRejection) -> StoreTransaction {
    guard case .object = resource else {
      throw RowRejection("expected a subscription object, found \(resource.brief)")
    }
    let token = try resource.requiredText("purchaseToken")
    let state = try resource.optionalText("subscriptionState")
    let pending = state.map { pendingStates.contains($0) } ?? false
    let start = try resource.optionalTimestamp("startTime", within: window)
    guard let at = start ?? (pending ? Instant.distantPast : nil) else {
      throw RowRejection("missing startTime")
    }

    // The line item with the latest expiry decides product, offer and price.
    var expiresAt: Instant?
    var current: JSONValue?
    var orderBaseIds: [String] = []
    for (index, item) in (try resource.optionalArray("lineItems") ?? []).enumerated() {
      guard case .object = item else { throw RowRejection("lineItems[\(index)] is not an object") }
      let expiry = try item.optionalTimestamp("expiryTime", within: window)
      if let expiry, expiresAt.map({ expiry > $0 }) ?? true {
        expiresAt = expiry
        current = item
      } else if current == nil {
        current = item
      }
      if let order = try item.optionalText("latestSuccessfulOrderId") {
        let base = PlayOrderId.base(order)
        if !orderBaseIds.contains(base) { orderBaseIds.append(base) }
      }
    }
    let legacy = try resource.optionalText("latestOrderId")
    if let legacy {
      let base = PlayOrderId.base(legacy)
      if !orderBaseIds.contains(base) { orderBaseIds.append(base) }
    }

    var productId = ""
    var record = StoreTransaction(
      store: .play, kind: .status, chainKey: token, transactionId: token, productId: "", at: at,
      origin: origin)
    if let item = current {
      productId = try item.optionalText("productId") ?? ""
      if let offer = try item.optionalObject("offerDetails") {
        if let basePlan = try offer.optionalText("basePlanId") { productId += ":" + basePlan }
        record.offerId = try offer.optionalText("offerId")
      }
      if let phase = try item.optionalObject("offerPhase") {
        record.isTrial = phase["freeTrial"] != nil
      }
      if let plan = try item.optionalObject("autoRenewingPlan") {
        if let price = try plan.optionalObject("recurringPrice") {
          let (currency, amount) = try money(price, field: "recurringPrice")
          record.currency = currency
          record.amountMinor = amount
        }
        record.commitment = try CommitmentFields.play(plan)
      }
    }
    record.productId = productId
    record.productTypeRaw = "subscription"
    record.purchaseToken = token
    record.orderBaseIds = orderBaseIds
    record.latestOrderId = try current?.optionalText("latestSuccessfulOrderId") ?? legacy
    record.expiresAt = expiresAt
    record.state = state
    record.pending = pending
    record.linkedChainKey = try resource.optionalText("linkedPurchaseToken")
    if let ids = try resource.optionalObject("externalAccountIdentifiers") {
      record.accountToken = try ids.optionalText("obfuscatedExternalAccountId")
    }
    if resource["testPurchase"] != nil { record.environment = .test }
    return record
  }

  /// Google's `Money{currencyCode, units, nanos}` as a currency and exact minor units.
  static func money(_ value: JSONValue, field: String) throws(RowRejection) -> (Currency, Int64) {
    guard let code = try value.optionalText("currencyCode") else {
      throw RowRejection("missing \(field).currencyCode")
    }
    let currency = try StoreCurrency.named(code)
    let units = try value.optionalInt64("units") ?? 0
    let nanosValue = try value.optionalInt64("nanos") ?? 0
    guard let nanos = Int32(exactly: nanosValue) else {
      throw RowRejection("\(field).nanos '\(nanosValue)' is out of range")
    }
    let amount = try StoreCurrency.convert { () throws(MoneyError) -> Int64 in
      try currency.minor(units: units, nanos: nanos)
    }
    return (currency, amount)
  }
}
