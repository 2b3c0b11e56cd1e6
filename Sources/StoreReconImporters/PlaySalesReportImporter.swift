import StoreReconPlatform
package import StoreReconCore
package import StoreReconIO

/// Google Play's estimated sales report (`salesreport_YYYYMM.csv`, or its `.zip` / `.gz`), reference §3.1.
///
/// Columns are found by name (extra columns ignored). Required: `Order Number`, `Financial Status`,
/// `SKU ID`, `Currency of Sale`, `Charged Amount`, and `Order Charged Timestamp` or `Order Charged Date`.
/// `Charged` rows become purchases, `Refund` rows refunds (amounts stored positive, either sign read).
package struct PlaySalesReportImporter: StoreImporter {
  /// The span a timestamp must fall in (``StoreTimeWindow``, from the run's T).
  package let window: StoreTimeWindow

  /// Creates the importer reading timestamps within `window`.
  package init(window: StoreTimeWindow = .standalone) { self.window = window }

  /// The columns this importer reads, resolved once from the header, and the window of the read.
  package struct Columns {
    var window: StoreTimeWindow
    var orderNumber: Int
    var status: Int
    var sku: Int
    var currency: Int
    var charged: Int
    var timestamp: Int
    var date: Int
    var basePlan: Int
    var offer: Int
    var productType: Int
    var taxes: Int
    var country: Int

    /// The columns of `csv`'s header, read within `window`.
    package init(_ csv: CSVReader, window: StoreTimeWindow = .standalone) throws(InputError) {
      try self.init(displayName: csv.displayName, window: window) { csv.columnIndex(anyOf: $0) }
    }

    init(displayName: String, window: StoreTimeWindow, lookup: ([String]) -> Int?) throws(InputError) {
      self.window = window
      var missing: [String] = []
      func find(_ names: [String], required: Bool) -> Int {
        if let index = lookup(names) { return index }
        if required { missing.append(names[0]) }
        return -1
      }
      orderNumber = find(["Order Number"], required: true)
      status = find(["Financial Status"], required: true)
      sku = find(["SKU ID", "Sku Id"], required: true)
      currency = find(["Currency of Sale"], required: true)
      charged = find(["Charged Amount"], required: true)
      timestamp = find(["Order Charged Timestamp"], required: false)
      date = find(["Order Charged Date"], required: false)
      if timestamp < 0 && date < 0 { missing.append("Order Charged Timestamp (or Order Charged Date)") }
      basePlan = find(["Base Plan ID"], required: false)
      offer = find(["Offer ID"], required: false)
      productType = find(["Product Type"], required: false)
      taxes = find(["Taxes Collected"], required: false)
      country = find(["Country of Buyer"], required: false)
      guard missing.isEmpty else { throw .missingColumns(file: displayName, missing) }
    }
  }

  /// Reads one sales report.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    emit: (StoreTransaction) -> Void
  ) throws(InputError) -> InputCounts {
    let csv = try CSVReader(path: path, displayName: displayName)
    let columns = try Columns(csv, window: window)
    var counter = RecordCounter(displayName: displayName, rejects: rejects)
    let expected = csv.header.count
    while let record = try csv.next() {
      do throws(RowRejection) {
        if let problem = record.malformed { throw RowRejection("not valid CSV: \(problem)") }
        guard record.count == expected else {
          throw RowRejection("expected \(expected) fields as in the header, found \(record.count)")
        }
        let origin = Origin(file: fileIndex, line: Int32(clamping: record.line))
        let transaction = try PlaySalesReportImporter.transaction(record, columns, origin: origin)
        counter.accept()
        emit(transaction)
      } catch {
        counter.reject(line: record.line, reason: error.reason, raw: record.rawText)
      }
    }
    return counter.counts
  }

  /// Reads one sales report straight into `builder` (in chunks on all cores when the file is plain).
  package func read(
    path: String, displayName: String, rejects: any RejectSink, into builder: LedgerBuilder,
    chunkBytes: Int = CSVChunkImport.chunkSize, threads: Int = Parallel.cores
  ) throws(InputError) -> PackedImport {
    let schedule = ReadSchedule(workers: threads)
    let source = CSVChunkImport.Source<Packer>(
      path: path, displayName: displayName, settings: window, chunkBytes: chunkBytes)
    schedule.add(source)
    return try read(source, rejects: rejects, into: builder)
  }

  /// Reads one sales report, chunked by a ``ReadSchedule``, straight into `builder`.
  package func read(
    _ source: CSVChunkImport.Source<Packer>, rejects: any RejectSink, into builder: LedgerBuilder
  )
    throws(InputError) -> PackedImport
  {
    var firstAt = Int64.max
    var lastAt = Int64.min
    let counts = try source.consume(rejects: rejects) { batch, _ in
      builder.merge(batch)
      firstAt = min(firstAt, batch.firstAt)
      lastAt = max(lastAt, batch.lastAt)
    }
    return PackedImport(
      counts: counts, firstAt: firstAt == Int64.max ? nil : Instant(ms: firstAt),
      lastAt: lastAt == Int64.min ? nil : Instant(ms: lastAt))
  }

  /// Packs sales rows: the plain row straight from its bytes, anything else through ``transaction(_:_:origin:)``.
  package struct Packer: CSVRecordPacker {
    let columns: Columns
    /// Products seen (SKU, base plan, product type, country) and their variants, for ``knownIn``: rows repeat a
    /// few products.
    var known: [(product: [UInt8], variant: UInt32)] = []
    private var knownIn: ProductNames?
    var scratch: [UInt8] = []

    /// The window a reader on its own uses (``StoreTimeWindow/standalone``).
    package static func columns(_ header: CSVChunkImport.Header) throws(InputError) -> Columns {
      try columns(header, settings: .standalone)
    }

    /// The columns of `header`, read within `window`.
    package static func columns(_ header: CSVChunkImport.Header, settings window: StoreTimeWindow)
      throws(InputError) -> Columns
    {
      try Columns(displayName: header.displayName, window: window) { header.columnIndex(anyOf: $0) }
    }

    package init(columns: Columns) { self.columns = columns }

    package func makeOutput() -> RecordBatch { RecordBatch() }

    /// About one row per 180 bytes (a sales row is 190 to 220).
    package func reserve(_ batch: inout RecordBatch, bytes: Int) {
      let n = bytes / 180 + 16
      batch.records.reserveCapacity(n)
      batch.keys.reserveCapacity(n)
      batch.spaces.reserveCapacity(n)
      batch.tokenNumbers.reserveCapacity(n)
      batch.originals.reserveCapacity(n)
    }

    package mutating func pack(_ record: CSVRecord, into batch: inout RecordBatch) throws(RowRejection) {
      if packPlain(record, into: batch) { return }
      batch.add(try PlaySalesReportImporter.transaction(record, columns, origin: Origin(file: -1, line: 0)))
    }

    /// The plain row (a `GPA.` order id, a Unix timestamp, amounts its currency allows): packed as
    /// ``transaction(_:_:origin:)`` and ``RecordBatch/add(_:)`` would; `false` for anything else.
    package mutating func packPlain(_ record: CSVRecord, into batch: RecordBatch) -> Bool {
      let status = ByteText.trimmed(record.field(columns.status))
      let kind: StoreTransaction.Kind
      if ByteText.equalsIgnoringCase(status, "charged") {
        kind = .purchase
      } else if ByteText.equalsIgnoringCase(status, "refund") {
        kind = .refund
      } else {
        return false
      }
      let order = ByteText.trimmed(record.field(columns.orderNumber))
      guard let id = PackedID.packed(order), id.kind == .playOrder else { return false }
      let seconds = ByteText.trimmed(record.field(columns.timestamp))
      guard !seconds.isEmpty, let value = ByteText.int64(seconds), value > -100_000_000_000,
        value < 100_000_000_000, columns.window.contains(value * 1000)
      else { return false }
      let sku = ByteText.trimmed(record.field(columns.sku))
      guard !sku.isEmpty else { return false }
      let basePlan = ByteText.trimmed(record.field(columns.basePlan))
      let currencyBytes = ByteText.trimmed(record.field(columns.currency))
      guard !currencyBytes.isEmpty, let currency = Currency.named(bytes: currencyBytes) else { return false }
      let charged = ByteText.trimmed(record.field(columns.charged))
      guard !charged.isEmpty, let amount = try? currency.minor(decimalBytes: charged) else { return false }
      let taxes = ByteText.trimmed(record.field(columns.taxes))
      var tax: Int64?
      if !taxes.isEmpty {
        guard let value = try? currency.minor(decimalBytes: taxes) else { return false }
        tax = value.magnitude <= UInt64(Int64.max) ? Int64(value.magnitude) : Int64.max
      }
      let type = ByteText.trimmed(record.field(columns.productType))

      // Product `sku` or `sku:basePlan`, with the raw type: one variant, remembered between rows.
      scratch.removeAll(keepingCapacity: true)
      scratch.append(contentsOf: sku)
      if !basePlan.isEmpty {
        scratch.append(0x3A)
        scratch.append(contentsOf: basePlan)
      }
      let nameLength = scratch.count
      scratch.append(0)
      scratch.append(contentsOf: type)
      let country = CountryCode.pack(alpha2: ByteText.trimmed(record.field(columns.country)))
      scratch.append(UInt8(truncatingIfNeeded: country))
      scratch.append(UInt8(truncatingIfNeeded: country >> 8))
      if knownIn !== batch.products {
        knownIn = batch.products
        known.removeAll()
      }
      let variant = knownVariant(nameLength: nameLength, in: batch)

      let at = value * 1000
      batch.noteInstant(at)
      var flags = PackedRecord.Flags(rawValue: PackedRecord.kindBits(kind))
      var extra = PackedRecord.none
      if let tax {
        extra = tax
        flags.insert(.taxInExtra)
      }
      let packed = PackedRecord(
        at: at, amount: amount.magnitude <= UInt64(Int64.max) ? Int64(amount.magnitude) : Int64.max,
        extra: extra, tx: CompactID(id, pooling: batch.texts), variant: variant,
        currency: UInt16(truncatingIfNeeded: currency.tableIndex + 1), flags: flags)
      batch.records.append(packed)
      batch.keys.append(id.playBase)
      batch.spaces.append(.playOrder)
      batch.tokenNumbers.append(0)
      batch.originals.append(PackedRecord.none)
      return true
    }
  }

  /// Maps one sales-report row.
  package static func transaction(_ record: CSVRecord, _ columns: Columns, origin: Origin)
    throws(RowRejection)
    -> StoreTransaction
  {
    let status = ByteText.trimmed(record.field(columns.status))
    let kind: StoreTransaction.Kind
    if ByteText.equalsIgnoringCase(status, "charged") {
      kind = .purchase
    } else if ByteText.equalsIgnoringCase(status, "refund") {
      kind = .refund
    } else if status.isEmpty {
      throw RowRejection("missing Financial Status")
    } else {
      throw RowRejection("unknown Financial Status \(ByteText.quoted(status))")
    }
    let orderBytes = ByteText.trimmed(record.field(columns.orderNumber))
    guard !orderBytes.isEmpty else { throw RowRejection("missing Order Number") }
    let orderNumber = String(decoding: orderBytes, as: UTF8.self)
    let base = PlayOrderId.base(orderNumber)
    let at = try instant(record, columns)
    let sku = ByteText.trimmed(record.field(columns.sku))
    guard !sku.isEmpty else { throw RowRejection("missing SKU ID") }
    let basePlan = ByteText.trimmed(record.field(columns.basePlan))
    var productId = String(decoding: sku, as: UTF8.self)
    if !basePlan.isEmpty { productId += ":" + String(decoding: basePlan, as: UTF8.self) }
    let currencyBytes = ByteText.trimmed(record.field(columns.currency))
    guard !currencyBytes.isEmpty else { throw RowRejection("missing Currency of Sale") }
    let currency = try StoreCurrency.named(bytes: currencyBytes)
    let charged = ByteText.trimmed(record.field(columns.charged))
    guard !charged.isEmpty else { throw RowRejection("missing Charged Amount") }
    let amount = try StoreCurrency.convert { () throws(MoneyError) -> Int64 in
      try currency.minor(decimalBytes: charged)
    }
    var transaction = StoreTransaction(
      store: .play, kind: kind, chainKey: base, transactionId: orderNumber, productId: productId, at: at,
      origin: origin)
    transaction.currency = currency
    transaction.amountMinor = amount.magnitude <= UInt64(Int64.max) ? Int64(amount.magnitude) : Int64.max
    let taxes = ByteText.trimmed(record.field(columns.taxes))
    if !taxes.isEmpty {
      let tax = try StoreCurrency.convert { () throws(MoneyError) -> Int64 in
        try currency.minor(decimalBytes: taxes)
      }
      transaction.taxMinor = tax.magnitude <= UInt64(Int64.max) ? Int64(tax.magnitude) : Int64.max
    }
    transaction.productTypeRaw = String(
      decoding: ByteText.trimmed(record.field(columns.productType)), as: UTF8.self)
    let offer = ByteText.trimmed(record.field(columns.offer))
    if !offer.isEmpty { transaction.offerId = String(decoding: offer, as: UTF8.self) }
    transaction.country = CountryCode.pack(alpha2: ByteText.trimmed(record.field(columns.country)))
    return transaction
  }

  /// `Order Charged Timestamp` (Unix seconds), else `Order Charged Date` at 00:00 UTC.
  static func instant(_ record: CSVRecord, _ columns: Columns) throws(RowRejection) -> Instant {
    let seconds = ByteText.trimmed(record.field(columns.timestamp))
    if !seconds.isEmpty {
      guard let value = ByteText.int64(seconds), value > -100_000_000_000, value < 100_000_000_000 else {
        throw RowRejection(
          "Order Charged Timestamp \(ByteText.quoted(seconds)) is not a Unix time in seconds")
      }
      if let problem = columns.window.problem("Order Charged Timestamp", value * 1000) {
        throw RowRejection(problem)
      }
      return Instant(ms: value * 1000)
    }
    let dateBytes = ByteText.trimmed(record.field(columns.date))
    guard !dateBytes.isEmpty else {
      throw RowRejection("missing Order Charged Timestamp and Order Charged Date")
    }
    guard let date = CivilDate.parse(String(decoding: dateBytes, as: UTF8.self)) else {
      throw RowRejection("Order Charged Date \(ByteText.quoted(dateBytes)) is not a date (YYYY-MM-DD)")
    }
    if let problem = columns.window.problem("Order Charged Date", date.startUTC.ms) {
      throw RowRejection(problem)
    }
    return date.startUTC
  }
}
