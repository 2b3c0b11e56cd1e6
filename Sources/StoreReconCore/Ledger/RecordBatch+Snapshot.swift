extension RecordBatch {
  /// Appends the batch as the run's snapshot keeps it (docs/snapshot.md): every field a packer fills,
  /// the pooled texts and product names in their numbering, so that ``decoded(from:at:)`` gives a batch
  /// the ledger merges exactly as this one. Call it before the batch is merged (merging may trim it).
  package func encode(into out: inout SnapshotBytes) {
    out.int(unverifiedLines)
    out.int(unpricedLines)
    out.i64(firstAt)
    out.i64(lastAt)
    out.pool(texts)
    out.pool(tokens)
    out.names(products)
    out.int(records.count)
    for i in records.indices {
      let r = records[i]
      out.i64(r.at)
      out.i64(r.amount)
      out.i64(r.extra)
      out.u64(r.tx.bits)
      out.u32(r.variant)
      out.u16(r.currency)
      out.u16(r.flags.rawValue)
      out.id(keys[i])
      out.byte(spaces[i].rawValue)
      out.u32(tokenNumbers[i])
      out.i64(originals[i])
      out.u32(i < lines.count ? lines[i] : 0)
    }
    out.int(rare.count)
    for number in rare.keys.sorted() {
      guard let fields = rare[number] else { continue }
      out.int(number)
      out.rare(fields)
    }
    out.int(recordBases.count)
    for (record, base) in recordBases {
      out.int(record)
      out.id(base)
    }
    out.int(statuses.count)
    for i in statuses.indices {
      let s = statuses[i]
      out.i64(s.at)
      out.i64(s.expires)
      out.i64(s.amount)
      out.id(s.latestOrder)
      out.u32(s.installments)
      out.id(s.linked)
      out.u32(s.variant)
      out.u32(s.token)
      out.u16(s.currency)
      out.u16(s.flags)
      out.id(statusKeys[i])
      out.byte(statusSpaces[i].rawValue)
      out.u32(i < statusLines.count ? statusLines[i] : 0)
    }
    out.int(statusBases.count)
    for (status, base) in statusBases {
      out.int(status)
      out.id(base)
    }
  }

  /// The batch ``encode(into:)`` wrote at `at` in `bytes` (moving `at` past it); `nil` when the bytes do
  /// not hold one (cut short, a count or a number out of range).
  package static func decoded(from bytes: [UInt8], at: inout Int) -> RecordBatch? {
    var reader = SnapshotReader(bytes: bytes, at: at)
    guard let batch = reader.batch() else { return nil }
    at = reader.at
    return batch
  }
}

/// The bytes of a snapshot being written: fixed-width little-endian numbers, counted texts.
package struct SnapshotBytes {
  package var bytes: [UInt8] = []

  /// Empty bytes.
  package init() {}

  package mutating func byte(_ v: UInt8) { bytes.append(v) }
  package mutating func u16(_ v: UInt16) { u64(UInt64(v), width: 2) }
  package mutating func u32(_ v: UInt32) { u64(UInt64(v), width: 4) }
  package mutating func i64(_ v: Int64) { u64(UInt64(bitPattern: v)) }
  package mutating func int(_ v: Int) { i64(Int64(v)) }

  package mutating func u64(_ v: UInt64, width: Int = 8) {
    for i in 0..<width { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
  }

  /// A text as its byte count and UTF-8 bytes.
  package mutating func text(_ s: String) {
    let utf8 = Array(s.utf8)
    int(utf8.count)
    bytes += utf8
  }

  mutating func id(_ id: PackedID) {
    u64(id.value)
    u32(id.meta)
  }

  mutating func optional(_ v: Int64?) {
    byte(v == nil ? 0 : 1)
    i64(v ?? 0)
  }

  mutating func optional(_ s: String?) {
    byte(s == nil ? 0 : 1)
    if let s { text(s) }
  }

  mutating func pool(_ pool: TextPool) {
    int(pool.count)
    for n in 0..<pool.count {
      pool.withBytes(UInt32(n)) { text in
        int(text.count)
        bytes += text
      }
    }
  }

  mutating func names(_ names: ProductNames) {
    int(names.names.count)
    for s in names.names { text(s) }
    int(names.types.count)
    for s in names.types { text(s) }
    int(names.variants.count)
    for v in names.variants {
      byte(v.store == .appStore ? 0 : v.store == .play ? 1 : 2)
      u32(v.name)
      u32(v.type)
      u16(v.country)
      u16(v.quantity)
    }
  }

  mutating func rare(_ r: RareFields) {
    optional(r.revokedAt?.ms)
    optional(r.revocationType)
    optional(r.revocationReason.map { Int64($0) })
    optional(r.revocationPercentMilli)
    optional(r.tax)
    optional(r.revocationTypeUpper)
    byte(r.commitment == nil ? 0 : 1)
    guard let c = r.commitment else { return }
    optional(c.paymentNumber.map { Int64($0) })
    optional(c.totalPayments.map { Int64($0) })
    optional(c.remainingPayments.map { Int64($0) })
    optional(c.endsAt?.ms)
    byte(c.pendingCancellation ? 1 : 0)
  }
}

/// Reads what ``SnapshotBytes`` wrote; every read checks the bytes are there (`nil` when not).
package struct SnapshotReader {
  package let bytes: [UInt8]
  package var at: Int

  /// A reader of `bytes` from `at`.
  package init(bytes: [UInt8], at: Int) {
    self.bytes = bytes
    self.at = at
  }

  package mutating func u64(width: Int = 8) -> UInt64? {
    guard at >= 0, bytes.count - at >= width else { return nil }
    var v: UInt64 = 0
    for i in 0..<width { v |= UInt64(bytes[at + i]) << (8 * UInt64(i)) }
    at += width
    return v
  }

  package mutating func byte() -> UInt8? { u64(width: 1).map { UInt8($0) } }
  package mutating func u16() -> UInt16? { u64(width: 2).map { UInt16($0) } }
  package mutating func u32() -> UInt32? { u64(width: 4).map { UInt32($0) } }
  package mutating func i64() -> Int64? { u64().map { Int64(bitPattern: $0) } }

  /// A count or number that must lie in `0...limit`.
  package mutating func int(max limit: Int = Int(Int32.max)) -> Int? {
    guard let v = i64(), v >= 0, v <= Int64(limit) else { return nil }
    return Int(v)
  }

  package mutating func raw(_ n: Int) -> ArraySlice<UInt8>? {
    guard n >= 0, bytes.count - at >= n else { return nil }
    defer { at += n }
    return bytes[at..<(at + n)]
  }

  package mutating func text() -> String? {
    guard let n = int(), let raw = raw(n) else { return nil }
    return String(decoding: raw, as: UTF8.self)
  }

  mutating func id() -> PackedID? {
    guard let value = u64(), let meta = u32() else { return nil }
    return PackedID(value: value, meta: meta)
  }

  mutating func optional() -> Int64?? {
    guard let flag = byte(), let v = i64() else { return nil }
    return flag == 0 ? .some(nil) : .some(v)
  }

  mutating func optionalText() -> String?? {
    guard let flag = byte() else { return nil }
    if flag == 0 { return .some(nil) }
    guard let s = text() else { return nil }
    return .some(s)
  }

  mutating func pool(into pool: TextPool) -> Bool {
    guard let n = int() else { return false }
    for i in 0..<n {
      guard let length = int(), let raw = raw(length) else { return false }
      // (the pooled texts are valid UTF-8: every line is checked before it is packed)
      let number = pool.intern(String(decoding: raw, as: UTF8.self))
      guard number == UInt32(i) else { return false }
    }
    return true
  }

  mutating func names(into names: ProductNames) -> Bool {
    guard let nameCount = int() else { return false }
    for i in 0..<nameCount {
      guard let s = text(), names.name(s) == UInt32(i) else { return false }
    }
    guard let typeCount = int() else { return false }
    for i in 0..<typeCount {
      guard let s = text(), names.type(s) == UInt32(i) else { return false }
    }
    guard let variantCount = int() else { return false }
    for i in 0..<variantCount {
      guard let store = byte(), store < 3, let name = u32(), Int(name) < nameCount, let type = u32(),
        Int(type) < typeCount, let country = u16(), let quantity = u16()
      else { return false }
      let v = names.variant(
        store: store == 0 ? .appStore : store == 1 ? .play : .stripe, name: name, type: type,
        country: country, quantity: quantity)
      guard v == UInt32(i) else { return false }
    }
    return true
  }

  mutating func rare() -> RareFields? {
    guard let revokedAt = optional(), let type = optionalText(), let reason = optional(),
      let percent = optional(), let tax = optional(), let upper = optionalText(), let hasCommitment = byte()
    else { return nil }
    var fields = RareFields(
      revokedAt: revokedAt.map { Instant(ms: $0) }, revocationType: type,
      revocationReason: reason.map { Int(truncatingIfNeeded: $0) }, revocationPercentMilli: percent,
      tax: tax, revocationTypeUpper: upper)
    guard hasCommitment != 0 else { return fields }
    guard let number = optional(), let total = optional(), let remaining = optional(), let ends = optional(),
      let pending = byte()
    else { return nil }
    fields.commitment = Commitment(
      paymentNumber: number.map { Int(truncatingIfNeeded: $0) },
      totalPayments: total.map { Int(truncatingIfNeeded: $0) },
      remainingPayments: remaining.map { Int(truncatingIfNeeded: $0) }, endsAt: ends.map { Instant(ms: $0) },
      pendingCancellation: pending != 0)
    return fields
  }

  mutating func space() -> RecordBatch.Space? { byte().flatMap { RecordBatch.Space(rawValue: $0) } }

  /// A batch, or `nil`.
  mutating func batch() -> RecordBatch? {
    let b = RecordBatch()
    guard let unverified = int(), let unpriced = int(), let firstAt = i64(), let lastAt = i64(),
      pool(into: b.texts), pool(into: b.tokens), names(into: b.products), let count = int()
    else { return nil }
    (b.unverifiedLines, b.unpricedLines, b.firstAt, b.lastAt) = (unverified, unpriced, firstAt, lastAt)
    b.records.reserveCapacity(count)
    for _ in 0..<count {
      guard let at = i64(), let amount = i64(), let extra = i64(), let tx = u64(), let variant = u32(),
        let currency = u16(), let flags = u16(), let key = id(), let space = space(), let token = u32(),
        let original = i64(), let line = u32()
      else { return nil }
      b.records.append(
        PackedRecord(
          at: at, amount: amount, extra: extra, tx: CompactID(bits: tx), variant: variant, currency: currency,
          flags: PackedRecord.Flags(rawValue: flags)))
      b.keys.append(key)
      b.spaces.append(space)
      b.tokenNumbers.append(token)
      b.originals.append(original)
      b.lines.append(line)
    }
    guard let rareCount = int(max: count) else { return nil }
    for _ in 0..<rareCount {
      guard let number = int(max: count - 1), let fields = rare() else { return nil }
      b.rare[number] = fields
    }
    guard let baseCount = int() else { return nil }
    for _ in 0..<baseCount {
      guard let record = int(max: count - 1), let base = id() else { return nil }
      b.recordBases.append((record, base))
    }
    guard let statusCount = int() else { return nil }
    for _ in 0..<statusCount {
      guard let at = i64(), let expires = i64(), let amount = i64(), let latest = id(),
        let installments = u32(), let linked = id(), let variant = u32(), let token = u32(),
        let currency = u16(), let flags = u16(), let key = id(), let space = space(), let line = u32()
      else { return nil }
      b.statuses.append(
        StatusRecord(
          at: at, expires: expires, amount: amount, latestOrder: latest, linked: linked, variant: variant,
          token: token, currency: currency, flags: flags, installments: installments))
      b.statusKeys.append(key)
      b.statusSpaces.append(space)
      b.statusLines.append(line)
    }
    guard let statusBaseCount = int() else { return nil }
    for _ in 0..<statusBaseCount {
      guard let status = int(max: statusCount - 1), let base = id() else { return nil }
      b.statusBases.append((status, base))
    }
    return b
  }
}
