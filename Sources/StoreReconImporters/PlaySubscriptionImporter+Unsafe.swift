// Safety: the plain resource's fields are spans of the caller's line found by JSONSpanScanner after it
// validated the line (valid during `pack` only); the product and token caches are arrays, copied from the
// spans before the call returns.

import StoreReconPlatform
package import StoreReconCore
package import StoreReconIO

// The batch import's line packer and its fast path: each line a buffer into the read's chunk, valid
// during the call, and the plain resource's fields read as spans of it.
extension PlaySubscriptionImporter {
  /// Packs lines: the plain resource straight from its bytes, anything else through the full parser.
  package struct Packer: JSONLinePacker {
    let window: StoreTimeWindow
    private var products: ProductNames?
    private var lastProduct: [UInt8] = []
    private var lastVariant: UInt32 = 0
    private var subscriptionType: UInt32 = 0

    /// A packer reading times within `window`.
    package init(settings window: StoreTimeWindow) { self.window = window }

    /// A packer on its own (tests): times within ``StoreTimeWindow/standalone``.
    package init() { self.init(settings: .standalone) }

    /// About one resource per 640 bytes (a resource line is 700 to 800).
    package func reserve(_ batch: RecordBatch, bytes: Int) {
      let n = bytes / 640 + 16
      batch.statuses.reserveCapacity(n)
      batch.statusKeys.reserveCapacity(n)
      batch.statusSpaces.reserveCapacity(n)
    }

    package mutating func pack(_ line: UnsafeBufferPointer<UInt8>, into batch: RecordBatch)
      throws(RowRejection)
    {
      if packPlain(line, into: batch) { return }
      batch.add(
        try PlaySubscriptionImporter.transaction(
          from: try JSONLinesImport.parse(line), origin: Origin(file: -1, line: 0), window: window))
    }

    /// One line item's fields.
    struct Item {
      var productId: UnsafeBufferPointer<UInt8>?
      var expiry: Int64?
      var order: UnsafeBufferPointer<UInt8>?
      var offerDetails: JSONSpanScanner.Value?
      var offerPhase: JSONSpanScanner.Value?
      var plan: JSONSpanScanner.Value?
    }

    /// A text member (`nil` absent, `.some(nil)` a wrong kind: the full path rejects it).
    @inline(__always)
    static func text(_ value: JSONSpanScanner.Value, into slot: inout UnsafeBufferPointer<UInt8>?) -> Bool {
      guard let text = value.text else { return false }
      slot = text
      return true
    }

    /// An RFC 3339 timestamp member; `false` when it is not one.
    @inline(__always)
    func timestamp(_ value: JSONSpanScanner.Value, into slot: inout Int64?) -> Bool {
      guard let text = value.text else { return false }
      guard let text else {
        slot = nil
        return true
      }
      guard let instant = Instant.parseISO8601(text), window.contains(instant.ms) else {
        return false
      }
      slot = instant.ms
      return true
    }

    /// An object member (or absent); `false` for any other kind.
    @inline(__always)
    static func object(_ value: JSONSpanScanner.Value, into slot: inout JSONSpanScanner.Value?) -> Bool {
      switch value {
      case .object: slot = value
      case .null: slot = nil
      default: return false
      }
      return true
    }

    /// A whole number member as ``JSONValue/int64Value`` reads it; `false` when it is not one.
    /// A member of `autoRenewingPlan`: `recurringPrice` into `price`; `false` (the full path) for an
    /// installments plan's `installmentDetails`, or a price that is not an object.
    static func planMember(
      _ key: UnsafeBufferPointer<UInt8>, _ value: JSONSpanScanner.Value, price: inout JSONSpanScanner.Value?
    ) -> Bool {
      if FlatJSONScanner.equals(key, "recurringPrice") { return Packer.object(value, into: &price) }
      return !FlatJSONScanner.equals(key, "installmentDetails")
    }

    static func integer(_ value: JSONSpanScanner.Value, into slot: inout Int64?) -> Bool {
      guard let text = value.text else { return false }
      guard let text else {
        slot = nil
        return true
      }
      guard let number = JSONNumber.convert(text, rounding: false) else {
        return false
      }
      slot = number
      return true
    }

    /// The plain resource: packed as ``transaction(from:origin:)`` and ``RecordBatch/add(_:)`` would;
    /// `false` for anything the full path must decide.
    package mutating func packPlain(_ line: UnsafeBufferPointer<UInt8>, into batch: RecordBatch) -> Bool {
      guard line.first == 0x7B, case .object(let top)? = JSONSpanScanner.validate(line) else { return false }
      var ok = true
      var token: UnsafeBufferPointer<UInt8>?
      var state: UnsafeBufferPointer<UInt8>?
      var start: Int64?
      var lineItems: JSONSpanScanner.Value?
      var legacy: UnsafeBufferPointer<UInt8>?
      var linked: UnsafeBufferPointer<UInt8>?
      var external: JSONSpanScanner.Value?
      var test = false
      JSONSpanScanner.members(top) { key, value in
        if FlatJSONScanner.equals(key, "purchaseToken") {
          ok = ok && Packer.text(value, into: &token)
        } else if FlatJSONScanner.equals(key, "subscriptionState") {
          ok = ok && Packer.text(value, into: &state)
        } else if FlatJSONScanner.equals(key, "startTime") {
          ok = ok && timestamp(value, into: &start)
        } else if FlatJSONScanner.equals(key, "lineItems") {
          switch value {
          case .array: lineItems = value
          case .null: lineItems = nil
          default: ok = false
          }
        } else if FlatJSONScanner.equals(key, "latestOrderId") {
          ok = ok && Packer.text(value, into: &legacy)
        } else if FlatJSONScanner.equals(key, "linkedPurchaseToken") {
          ok = ok && Packer.text(value, into: &linked)
        } else if FlatJSONScanner.equals(key, "externalAccountIdentifiers") {
          ok = ok && Packer.object(value, into: &external)
        } else if FlatJSONScanner.equals(key, "testPurchase") {
          if case .null = value { test = false } else { test = true }
        }
      }
      guard ok, let token else { return false }
      let pending =
        state.map {
          FlatJSONScanner.equals($0, "SUBSCRIPTION_STATE_PENDING")
            || FlatJSONScanner.equals($0, "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED")
        } ?? false
      guard let at = start ?? (pending ? Instant.distantPast.ms : nil) else { return false }

      // The line item with the latest expiry decides product, offer and price.
      var items: [Item] = []
      if case .array(let list)? = lineItems {
        JSONSpanScanner.elements(list) { element in
          guard case .object(let object) = element else {
            ok = false
            return
          }
          var item = Item()
          JSONSpanScanner.members(object) { key, value in
            if FlatJSONScanner.equals(key, "productId") {
              ok = ok && Packer.text(value, into: &item.productId)
            } else if FlatJSONScanner.equals(key, "expiryTime") {
              ok = ok && timestamp(value, into: &item.expiry)
            } else if FlatJSONScanner.equals(key, "latestSuccessfulOrderId") {
              ok = ok && Packer.text(value, into: &item.order)
            } else if FlatJSONScanner.equals(key, "offerDetails") {
              item.offerDetails = value
            } else if FlatJSONScanner.equals(key, "offerPhase") {
              item.offerPhase = value
            } else if FlatJSONScanner.equals(key, "autoRenewingPlan") {
              item.plan = value
            }
          }
          items.append(item)
        }
      }
      guard ok else { return false }
      var expires: Int64?
      var current: Int?
      for (index, item) in items.enumerated() {
        if let expiry = item.expiry, expires.map({ expiry > $0 }) ?? true {
          expires = expiry
          current = index
        } else if current == nil {
          current = index
        }
      }

      var product: [UInt8] = []
      var trial = false
      var amount: Int64 = 0
      var currencyNumber: UInt16 = 0
      if let current {
        let item = items[current]
        product.append(contentsOf: item.productId ?? UnsafeBufferPointer(start: nil, count: 0))
        var offer: JSONSpanScanner.Value?
        if let details = item.offerDetails {
          guard Packer.object(details, into: &offer) else { return false }
        }
        if case .object(let text)? = offer {
          var basePlan: UnsafeBufferPointer<UInt8>?
          var offerId: UnsafeBufferPointer<UInt8>?
          JSONSpanScanner.members(text) { key, value in
            if FlatJSONScanner.equals(key, "basePlanId") {
              ok = ok && Packer.text(value, into: &basePlan)
            } else if FlatJSONScanner.equals(key, "offerId") {
              ok = ok && Packer.text(value, into: &offerId)
            }
          }
          guard ok else { return false }
          if let basePlan {
            product.append(0x3A)
            product.append(contentsOf: basePlan)
          }
        }
        var phase: JSONSpanScanner.Value?
        if let value = item.offerPhase { guard Packer.object(value, into: &phase) else { return false } }
        if case .object(let text)? = phase {
          JSONSpanScanner.members(text) { key, value in
            if FlatJSONScanner.equals(key, "freeTrial") {
              if case .null = value { trial = false } else { trial = true }
            }
          }
        }
        var plan: JSONSpanScanner.Value?
        if let value = item.plan { guard Packer.object(value, into: &plan) else { return false } }
        if case .object(let text)? = plan {
          var price: JSONSpanScanner.Value?
          JSONSpanScanner.members(text) { key, value in
            ok = ok && Packer.planMember(key, value, price: &price)
          }
          guard ok else { return false }
          if case .object(let priceText)? = price {
            var code: UnsafeBufferPointer<UInt8>?
            var units: Int64?
            var nanos: Int64?
            JSONSpanScanner.members(priceText) { key, value in
              if FlatJSONScanner.equals(key, "currencyCode") {
                ok = ok && Packer.text(value, into: &code)
              } else if FlatJSONScanner.equals(key, "units") {
                ok = ok && Packer.integer(value, into: &units)
              } else if FlatJSONScanner.equals(key, "nanos") {
                ok = ok && Packer.integer(value, into: &nanos)
              }
            }
            guard ok, let code, let currency = Currency.named(bytes: code),
              let small = Int32(exactly: nanos ?? 0),
              let minor = try? currency.minor(units: units ?? 0, nanos: small)
            else { return false }
            amount = minor
            currencyNumber = UInt16(truncatingIfNeeded: currency.tableIndex + 1)
          }
        }
      }
      var accountToken: UInt32 = 0
      if case .object(let text)? = external {
        var id: UnsafeBufferPointer<UInt8>?
        JSONSpanScanner.members(text) { key, value in
          if FlatJSONScanner.equals(key, "obfuscatedExternalAccountId") {
            ok = ok && Packer.text(value, into: &id)
          }
        }
        guard ok else { return false }
        if let id { accountToken = batch.tokens.intern(id) + 1 }
      }

      // The variant of the product (`productId:basePlanId`) as a subscription.
      if products !== batch.products {
        products = batch.products
        lastProduct = [0xFF]
        subscriptionType = batch.products.type("subscription")
      }
      if product != lastProduct {
        let table = batch.products
        lastVariant = product.withUnsafeBufferPointer {
          table.variant(store: .play, name: table.name($0), type: subscriptionType)
        }
        lastProduct = product
      }

      let texts = batch.texts
      func base(_ order: UnsafeBufferPointer<UInt8>) -> PackedID {
        let id = PackedID.intern(order, in: texts)
        if id.kind == .playOrder { return id.playBase }
        return PackedID.intern(PlayOrderId.base(String(decoding: order, as: UTF8.self)), in: texts)
      }
      var bases: [PackedID] = []
      for item in items {
        if let order = item.order {
          let b = base(order)
          if !bases.contains(b) { bases.append(b) }
        }
      }
      if let legacy {
        let b = base(legacy)
        if !bases.contains(b) { bases.append(b) }
      }
      let latest = current.flatMap { items[$0].order } ?? legacy

      batch.noteInstant(at)
      var flags: UInt16 = pending ? 1 : 0
      if trial { flags |= 2 }
      if test { flags |= PackedRecord.environmentBits(.test) }
      let number = batch.statuses.count
      batch.statuses.append(
        StatusRecord(
          at: at, expires: expires ?? PackedRecord.none, amount: amount,
          latestOrder: latest.map { PackedID.intern($0, in: texts) } ?? .absent,
          linked: linked.map { PackedID.intern($0, in: texts) } ?? .absent, variant: lastVariant,
          token: accountToken, currency: currencyNumber, flags: flags))
      batch.statusKeys.append(PackedID.intern(token, in: texts))
      batch.statusSpaces.append(.playToken)
      for b in bases { batch.statusBases.append((number, b)) }
      return true
    }
  }
}
