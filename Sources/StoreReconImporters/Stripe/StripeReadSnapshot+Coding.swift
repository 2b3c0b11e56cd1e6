import StoreReconCore
import StoreReconIO

// How the whole Stripe read (``StripeImport``) is written into its snapshot and read back
// (``StripeReadSnapshot``): each file's share in index order, the skipped types, the feed, the events,
// the aliases and the open disputes. Every field of a record is written, so that a record read back is
// the record the chains built.

extension SnapshotBytes {
  mutating func stripeImport(_ result: StripeImport) {
    int(result.files.count)
    for index in result.files.keys.sorted() {
      guard let file = result.files[index] else { continue }
      u32(UInt32(bitPattern: index))
      share(file)
    }
    int(result.unknownTypes.count)
    for (type, count) in result.unknownTypes.sorted(by: { $0.key < $1.key }) {
      text(type)
      int(count)
    }
    int(result.feed.count)
    for line in result.feed { feedLine(line) }
    int(result.events.count)
    for event in result.events {
      u32(UInt32(bitPattern: event.origin.file))
      notification(event)
    }
    int(result.aliases.count)
    for (id, key) in result.aliases {
      text(id)
      text(key)
    }
    int(result.openDisputes.count)
    for (key, disputes) in result.openDisputes {
      text(key)
      int(disputes.count)
      for d in disputes {
        text(d.id)
        text(d.status)
        i64(d.money.minor)
        currency(d.money.currency)
        i64(d.at.ms)
      }
    }
  }

  mutating func share(_ file: StripeImport.File) {
    int(file.counts.read)
    int(file.counts.accepted)
    int(file.counts.rejected)
    int(file.duplicates)
    int(file.superseded)
    maybe(file.error)
    maybe(file.firstAt)
    maybe(file.lastAt)
    int(file.rejects.count)
    for reject in file.rejects {
      text(reject.file)
      int(reject.line)
      text(reject.reason)
      text(reject.raw)
    }
    int(file.records.count)
    for record in file.records { transaction(record) }
  }

  mutating func feedLine(_ line: StripeFeedLine) {
    byte(line.kind == .charge ? 0 : 1)
    text(line.id)
    text(line.chargeId)
    text(line.invoiceId)
    i64(line.amountMinor)
    currency(line.currency)
    i64(line.at.ms)
    text(line.productId)
    flag(line.live)
    text(line.chainKey)
  }

  mutating func transaction(_ r: StoreTransaction) {
    text(r.store.rawValue)
    byte(r.kind.rawValue)
    text(r.chainKey)
    text(r.transactionId)
    text(r.productId)
    text(r.productTypeRaw)
    i64(r.at.ms)
    maybe(r.originalAt)
    maybe(r.expiresAt)
    i64(r.amountMinor)
    maybe(r.taxMinor)
    maybe(r.currency) { $0.currency($1) }
    flag(r.isTrial)
    byte(r.environment.rawValue)
    flag(r.familyShared)
    maybe(r.revokedAt)
    flag(r.isUpgraded)
    flag(r.pending)
    flag(r.noGrace)
    maybe(r.accountToken)
    maybe(r.offerId)
    maybe(r.reason)
    u16(r.country)
    u16(r.quantity)
    u32(UInt32(bitPattern: r.origin.file))
    u32(UInt32(bitPattern: r.origin.line))
    maybe(r.storedOrderBaseIds) { $0.texts($1) }
    maybe(r.latestOrderId)
    maybe(r.purchaseToken)
    maybe(r.linkedChainKey)
    maybe(r.revocationType)
    maybe(r.revocationReason.map { Int64($0) })
    maybe(r.revocationPercentMilli)
    maybe(r.state)
    maybe(r.commitment) { out, c in
      out.maybe(c.paymentNumber.map { Int64($0) })
      out.maybe(c.totalPayments.map { Int64($0) })
      out.maybe(c.remainingPayments.map { Int64($0) })
      out.maybe(c.endsAt)
      out.flag(c.pendingCancellation)
    }
  }
}

extension SnapshotReader {
  /// The read ``SnapshotBytes/stripeImport(_:)`` wrote, each origin's file index moved by `index`
  /// (`nil` for an index it does not know), or `nil` when the bytes do not hold one.
  mutating func stripeImport(_ index: (Int32) -> Int32?) -> StripeImport? {
    var result = StripeImport()
    guard let files = int() else { return nil }
    for _ in 0..<files {
      guard let then = line(), let now = index(then), let file = share(index) else { return nil }
      result.files[now] = file
    }
    guard let types = int() else { return nil }
    for _ in 0..<types {
      guard let type = text(), let count = int(max: Int.max) else { return nil }
      result.unknownTypes[type] = count
    }
    guard let feed = int() else { return nil }
    result.feed.reserveCapacity(feed)
    for _ in 0..<feed {
      guard let line = feedLine() else { return nil }
      result.feed.append(line)
    }
    guard let events = int() else { return nil }
    result.events.reserveCapacity(events)
    for _ in 0..<events {
      guard let then = line(), let file = index(then), let event = notification(file: file) else {
        return nil
      }
      result.events.append(event)
    }
    guard let aliases = int() else { return nil }
    result.aliases.reserveCapacity(aliases)
    for _ in 0..<aliases {
      guard let id = text(), let key = text() else { return nil }
      result.aliases[id] = key
    }
    guard let chains = int() else { return nil }
    for _ in 0..<chains {
      guard let key = text(), let count = int() else { return nil }
      var disputes: [StripeOpenDispute] = []
      for _ in 0..<count {
        guard let id = text(), let status = text(), let minor = i64(), let currency = currency(),
          let at = instant()
        else { return nil }
        disputes.append(
          StripeOpenDispute(id: id, status: status, money: Money(minor: minor, currency: currency), at: at))
      }
      result.openDisputes[key] = disputes
    }
    return result
  }

  mutating func share(_ index: (Int32) -> Int32?) -> StripeImport.File? {
    var file = StripeImport.File()
    guard let read = int(max: Int.max), let accepted = i64(), let rejected = int(max: Int.max),
      let duplicates = int(max: Int.max), let superseded = int(max: Int.max), let error = maybeText(),
      let firstAt = maybeInstant(), let lastAt = maybeInstant(), let rejects = int()
    else { return nil }
    file.counts = InputCounts(read: read, accepted: Int(accepted), rejected: rejected)
    (file.duplicates, file.superseded, file.error) = (duplicates, superseded, error)
    (file.firstAt, file.lastAt) = (firstAt, lastAt)
    file.rejects.reserveCapacity(rejects)
    for _ in 0..<rejects {
      guard let name = text(), let line = int(max: Int.max), let reason = text(), let raw = text() else {
        return nil
      }
      file.rejects.append(Reject(file: name, line: line, reason: reason, raw: raw))
    }
    guard let records = int() else { return nil }
    file.records.reserveCapacity(records)
    for _ in 0..<records {
      guard let record = transaction(index) else { return nil }
      file.records.append(record)
    }
    return file
  }

  mutating func feedLine() -> StripeFeedLine? {
    guard let k = byte(), k <= 1, let id = text(), let charge = text(), let invoice = text(),
      let amount = i64(), let currency = currency(), let at = instant(), let product = text(),
      let live = flag(), let chain = text()
    else { return nil }
    var line = StripeFeedLine(
      kind: k == 0 ? .charge : .refund, id: id, chargeId: charge, amountMinor: amount, currency: currency,
      at: at)
    (line.invoiceId, line.productId, line.live, line.chainKey) = (invoice, product, live, chain)
    return line
  }

  mutating func transaction(_ index: (Int32) -> Int32?) -> StoreTransaction? {
    guard let storeName = text(), let store = Store(rawValue: storeName), let k = byte(),
      let kind = StoreTransaction.Kind(rawValue: k), let chainKey = text(), let transactionId = text(),
      let productId = text(), let productType = text(), let at = instant(), let originalAt = maybeInstant(),
      let expiresAt = maybeInstant(), let amount = i64(), let tax = maybeInt64(),
      let currency = maybe({ $0.currency() }), let isTrial = flag(), let e = byte(),
      let environment = Environment(rawValue: e), let familyShared = flag(), let revokedAt = maybeInstant(),
      let isUpgraded = flag(), let pending = flag(), let noGrace = flag(), let accountToken = maybeText(),
      let offerId = maybeText(), let reason = maybeText(), let country = u16(), let quantity = u16(),
      let then = line(), let file = index(then), let line = line()
    else { return nil }
    var r = StoreTransaction(
      store: store, kind: kind, chainKey: chainKey, transactionId: transactionId, productId: productId,
      at: at,
      origin: Origin(file: file, line: line))
    (r.productTypeRaw, r.originalAt, r.expiresAt, r.amountMinor) = (
      productType, originalAt, expiresAt, amount
    )
    (r.taxMinor, r.currency, r.isTrial, r.environment) = (tax, currency, isTrial, environment)
    (r.familyShared, r.revokedAt, r.isUpgraded, r.pending) = (familyShared, revokedAt, isUpgraded, pending)
    (r.noGrace, r.accountToken, r.offerId, r.reason) = (noGrace, accountToken, offerId, reason)
    (r.country, r.quantity) = (country, quantity)
    guard let orderBaseIds = maybe({ $0.texts() }), let latestOrderId = maybeText(),
      let purchaseToken = maybeText(), let linkedChainKey = maybeText(), let revocationType = maybeText(),
      let revocationReason = maybeInt64(), let percent = maybeInt64(), let state = maybeText(),
      let commitment = maybe({ $0.commitment() })
    else { return nil }
    if let orderBaseIds { r.orderBaseIds = orderBaseIds }
    (r.latestOrderId, r.purchaseToken, r.linkedChainKey) = (latestOrderId, purchaseToken, linkedChainKey)
    (r.revocationType, r.revocationPercentMilli, r.state) = (revocationType, percent, state)
    r.revocationReason = revocationReason.map { Int($0) }
    r.commitment = commitment
    return r
  }

  mutating func commitment() -> Commitment? {
    guard let number = maybeInt64(), let total = maybeInt64(), let remaining = maybeInt64(),
      let endsAt = maybeInstant(), let pending = flag()
    else { return nil }
    return Commitment(
      paymentNumber: number.map { Int($0) }, totalPayments: total.map { Int($0) },
      remainingPayments: remaining.map { Int($0) }, endsAt: endsAt, pendingCancellation: pending)
  }
}
