import StoreReconCore
import StoreReconIO

// How a Stripe file's line effects are written into its snapshot and read back (``StripeSnapshot``).
// An effect starts with a tag byte: 1 an object line, 2 a line of a type the reader does not use, 3 an
// event of a `stripe.events` file; 0 ends the effects. Origins keep their line; their file is the
// input's index in the run that replays them.

extension SnapshotBytes {
  mutating func effect(_ effect: StripeLineEffect) {
    switch effect {
    case .history(let n):
      byte(3)
      notification(n)
    case .line(let event, .object(let object)):
      byte(1)
      maybe(event) { $0.notification($1) }
      self.object(object)
    case .line(let event, .unknown(let type)):
      byte(2)
      maybe(event) { $0.notification($1) }
      text(type)
    }
  }

  mutating func maybe<T>(_ value: T?, _ write: (inout SnapshotBytes, T) -> Void) {
    byte(value == nil ? 0 : 1)
    if let value { write(&self, value) }
  }

  mutating func flag(_ b: Bool) { byte(b ? 1 : 0) }
  mutating func maybe(_ s: String?) { maybe(s) { $0.text($1) } }
  mutating func maybe(_ at: Instant?) { maybe(at) { $0.i64($1.ms) } }
  mutating func maybe(_ v: Int64?) { maybe(v) { $0.i64($1) } }
  mutating func currency(_ c: Currency) { text(c.code) }

  mutating func texts(_ list: [String]) {
    int(list.count)
    for s in list { text(s) }
  }

  mutating func notification(_ n: StoreNotification) {
    text(n.store.rawValue)
    text(n.notificationId)
    text(n.type)
    maybe(n.subtype)
    maybe(n.eventAt)
    maybe(n.receivedAt)
    maybe(n.processedAt)
    maybe(n.chainKey)
    maybe(n.transactionId)
    maybe(n.productId)
    maybe(n.expiresAt)
    maybe(n.amountMinor)
    maybe(n.currency) { $0.currency($1) }
    flag(n.production)
    u32(UInt32(bitPattern: n.origin.line))
  }

  mutating func object(_ o: StripeObject) {
    byte(UInt8(StripeObject.Kind.allCases.firstIndex(of: o.kind) ?? 0))
    text(o.id)
    u64(o.fingerprint)
    i64(o.version)
    u32(UInt32(bitPattern: o.origin.line))
    switch o.part {
    case .failure(let why):
      byte(0)
      text(why.reason)
    case .success(let part):
      byte(1)
      self.part(part)
    }
  }

  mutating func metadata(_ m: StripeParts.Metadata?) {
    maybe(m) {
      $0.texts($1.keys)
      $0.texts($1.values)
    }
  }

  mutating func part(_ part: StripePart) {
    switch part {
    case .subscription(let s):
      text(s.status)
      maybe(s.customer)
      metadata(s.metadata)
      flag(s.live)
      for at in [s.start, s.trialStart, s.trialEnd, s.endedAt] { maybe(at) }
      maybe(s.price)
      maybe(s.priceLookupKey)
    case .invoice(let i):
      maybe(i.subscription)
      maybe(i.customer)
      flag(i.paid)
      i64(i.amountPaid)
      maybe(i.currency) { $0.currency($1) }
      maybe(i.tax)
      i64(i.paidAt.ms)
      maybe(i.periodStart)
      maybe(i.periodEnd)
      maybe(i.price)
      maybe(i.priceLookupKey)
      flag(i.oneTime)
      u16(i.quantity)
      texts(i.charges)
      texts(i.intents)
      flag(i.live)
    case .charge(let c):
      i64(c.amount)
      currency(c.currency)
      flag(c.succeeded)
      i64(c.created.ms)
      maybe(c.intent)
      maybe(c.invoice)
      maybe(c.customer)
      flag(c.live)
      metadata(c.metadata)
    case .moneyBack(let r):
      maybe(r.charge)
      maybe(r.intent)
      i64(r.amount)
      currency(r.currency)
      text(r.status)
      i64(r.at.ms)
      flag(r.live)
      flag(r.dispute)
    case .invoicePayment(let p):
      text(p.invoice)
      texts(p.charges)
      texts(p.intents)
    case .customer(let m):
      texts(m.keys)
      texts(m.values)
    case .price(let lookupKey):
      maybe(lookupKey)
    case .product:
      break
    }
  }
}

extension SnapshotReader {
  /// The effect of tag `tag` of input `file`, or `nil` when the bytes do not hold one.
  mutating func effect(tag: UInt8, file: Int32) -> StripeLineEffect? {
    switch tag {
    case 3:
      return notification(file: file).map { .history($0) }
    case 1, 2:
      guard let event = maybe({ $0.notification(file: file) }) else { return nil }
      if tag == 2 {
        guard let type = text() else { return nil }
        return .line(event: event, .unknown(type: type))
      }
      guard let object = object(file: file) else { return nil }
      return .line(event: event, .object(object))
    default:
      return nil
    }
  }

  /// An optional value: `.some(nil)` when absent, `nil` when the bytes do not hold one.
  mutating func maybe<T>(_ read: (inout SnapshotReader) -> T?) -> T?? {
    guard let flag = byte(), flag <= 1 else { return nil }
    if flag == 0 { return .some(nil) }
    guard let value = read(&self) else { return nil }
    return .some(value)
  }

  mutating func flag() -> Bool? {
    guard let b = byte(), b <= 1 else { return nil }
    return b == 1
  }

  mutating func maybeText() -> String?? { maybe { $0.text() } }
  mutating func maybeInstant() -> Instant?? { maybe { $0.i64().map { Instant(ms: $0) } } }
  mutating func maybeInt64() -> Int64?? { maybe { $0.i64() } }
  mutating func instant() -> Instant? { i64().map { Instant(ms: $0) } }
  mutating func currency() -> Currency? { text().flatMap { Currency.named($0) } }
  mutating func line() -> Int32? { u32().map { Int32(bitPattern: $0) } }

  mutating func texts() -> [String]? {
    guard let n = int() else { return nil }
    var list: [String] = []
    list.reserveCapacity(n)
    for _ in 0..<n {
      guard let s = text() else { return nil }
      list.append(s)
    }
    return list
  }

  mutating func notification(file: Int32) -> StoreNotification? {
    guard let raw = text(), let store = Store(rawValue: raw), let id = text(), let type = text(),
      let subtype = maybeText(), let eventAt = maybeInstant(), let receivedAt = maybeInstant(),
      let processedAt = maybeInstant(), let chainKey = maybeText(), let transactionId = maybeText(),
      let productId = maybeText(), let expiresAt = maybeInstant(), let amountMinor = maybeInt64(),
      let currency = maybe({ $0.currency() }), let production = flag(), let line = line()
    else { return nil }
    var n = StoreNotification(
      store: store, notificationId: id, type: type, origin: Origin(file: file, line: line))
    (n.subtype, n.eventAt, n.receivedAt, n.processedAt) = (subtype, eventAt, receivedAt, processedAt)
    (n.chainKey, n.transactionId, n.productId, n.expiresAt) = (chainKey, transactionId, productId, expiresAt)
    (n.amountMinor, n.currency, n.production) = (amountMinor, currency, production)
    return n
  }

  mutating func object(file: Int32) -> StripeObject? {
    guard let k = byte(), Int(k) < StripeObject.Kind.allCases.count, let id = text(),
      let fingerprint = u64(), let version = i64(), let line = line(), let ok = flag()
    else { return nil }
    let kind = StripeObject.Kind.allCases[Int(k)]
    let origin = Origin(file: file, line: line)
    var object = StripeObject(
      kind: kind, id: id, part: .failure(RowRejection("")), fingerprint: fingerprint, version: version,
      origin: origin)
    if ok {
      guard let part = part(kind, id: id, origin: origin) else { return nil }
      object.part = .success(part)
    } else {
      guard let why = text() else { return nil }
      object.part = .failure(RowRejection(why))
    }
    return object
  }

  mutating func metadata() -> StripeParts.Metadata?? {
    maybe { r in
      guard let keys = r.texts(), let values = r.texts(), keys.count == values.count else { return nil }
      return StripeParts.Metadata(keys: keys, values: values)
    }
  }

  mutating func part(_ kind: StripeObject.Kind, id: String, origin: Origin) -> StripePart? {
    switch kind {
    case .subscription:
      guard let status = text(), let customer = maybeText(), let metadata = metadata(), let live = flag(),
        let start = maybeInstant(), let trialStart = maybeInstant(), let trialEnd = maybeInstant(),
        let endedAt = maybeInstant(), let price = maybeText(), let lookupKey = maybeText()
      else { return nil }
      return .subscription(
        StripeParts.Subscription(
          id: id, origin: origin, status: status, customer: customer, metadata: metadata, live: live,
          start: start, trialStart: trialStart, trialEnd: trialEnd, endedAt: endedAt, price: price,
          priceLookupKey: lookupKey))
    case .invoice:
      guard let subscription = maybeText(), let customer = maybeText(), let paid = flag(),
        let amountPaid = i64(), let currency = maybe({ $0.currency() }), let tax = maybeInt64(),
        let paidAt = instant(), let periodStart = maybeInstant(), let periodEnd = maybeInstant(),
        let price = maybeText(), let lookupKey = maybeText(), let oneTime = flag(), let quantity = u16(),
        let charges = texts(), let intents = texts(), let live = flag()
      else { return nil }
      return .invoice(
        StripeParts.Invoice(
          id: id, origin: origin, subscription: subscription, customer: customer, paid: paid,
          amountPaid: amountPaid, currency: currency, tax: tax, paidAt: paidAt, periodStart: periodStart,
          periodEnd: periodEnd, price: price, priceLookupKey: lookupKey, oneTime: oneTime, quantity: quantity,
          charges: charges, intents: intents, live: live))
    case .charge:
      guard let amount = i64(), let currency = currency(), let succeeded = flag(), let created = instant(),
        let intent = maybeText(), let invoice = maybeText(), let customer = maybeText(), let live = flag(),
        let metadata = metadata()
      else { return nil }
      return .charge(
        StripeParts.Charge(
          id: id, origin: origin, amount: amount, currency: currency, succeeded: succeeded, created: created,
          intent: intent, invoice: invoice, customer: customer, live: live, metadata: metadata))
    case .refund, .dispute:
      guard let charge = maybeText(), let intent = maybeText(), let amount = i64(), let currency = currency(),
        let status = text(), let at = instant(), let live = flag(), let dispute = flag()
      else { return nil }
      return .moneyBack(
        StripeParts.Return(
          id: id, origin: origin, charge: charge, intent: intent, amount: amount, currency: currency,
          status: status, at: at, live: live, dispute: dispute))
    case .invoicePayment:
      guard let invoice = text(), let charges = texts(), let intents = texts() else { return nil }
      return .invoicePayment(StripeParts.InvoicePayment(invoice: invoice, charges: charges, intents: intents))
    case .customer:
      guard let keys = texts(), let values = texts(), keys.count == values.count else { return nil }
      return .customer(StripeParts.Metadata(keys: keys, values: values))
    case .price:
      guard let lookupKey = maybeText() else { return nil }
      return .price(lookupKey: lookupKey)
    case .product:
      return .product
    }
  }
}
