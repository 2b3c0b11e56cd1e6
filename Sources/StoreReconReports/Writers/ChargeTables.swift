package import StoreReconCore

/// Renders charges.csv and revenue_recognition_import.csv (docs/reports.md#chargescsv).
package enum ChargeTables {
  /// The detail file every money total traces to.
  package static let fileName = "charges.csv"
  /// One row per charge for a revenue-recognition tool's import.
  package static let importFileName = "revenue_recognition_import.csv"

  /// The columns of charges.csv.
  package static let header = [
    "kind", "store", "chain_key", "transaction_id", "product_id", "currency", "at", "day", "month",
    "service_start", "service_end", "amount_minor", "proceeds_minor", "proceeds_source", "in_revenue",
    "in_recognition",
  ]

  /// The bytes of a piece of a file written in pieces (``csv(_:dayOf:piece:emit:)``): about a megabyte.
  package static let pieceBytes = 1 << 20

  /// `charges.csv`; `dayOf` gives an instant's report day.
  package static func csv(_ lines: [ChargeLine], dayOf: (Instant) -> CivilDate) -> [UInt8] {
    var all: [UInt8] = []
    csv(lines, dayOf: dayOf) { (piece: [UInt8]) throws(Never) in all += piece }
    return all
  }

  /// `charges.csv` in pieces of about `piece` bytes, each handed to `emit` as it is made, in order: the
  /// file is never whole in memory (it holds every charge and refund of the history: 546 MB at 300,000
  /// realistic users).
  package static func csv<E: Error>(
    _ lines: [ChargeLine], dayOf: (Instant) -> CivilDate, piece: Int = pieceBytes,
    emit: ([UInt8]) throws(E) -> Void
  ) throws(E) {
    var csv = CSVBlock(start: CSVWriter(header: header).bytes, expected: piece)
    for l in lines {
      if csv.count >= piece { try emit(csv.takeBytes()) }
      row(l, dayOf: dayOf, to: &csv)
    }
    try emit(csv.takeBytes())
  }

  /// Appends `l`'s row of charges.csv, byte for byte as ``CSVWriter/row(_:)`` writes its fields' text
  /// (instants and days as their descriptions, numbers as digits), with no `String` made per field.
  static func row(_ l: ChargeLine, dayOf: (Instant) -> CivilDate, to csv: inout CSVBlock) {
    let day = dayOf(l.at)
    csv.field(l.kind.rawValue)
    csv.comma()
    csv.field(l.store.rawValue)
    csv.comma()
    csv.field(l.chainKey)
    csv.comma()
    csv.field(l.transactionId)
    csv.comma()
    csv.field(l.productId)
    csv.comma()
    csv.field(l.currency.code)
    csv.comma()
    csv.instant(l.at.ms)
    csv.comma()
    csv.date(day)
    csv.comma()
    csv.month(ReportMonth(day))
    csv.comma()
    if let start = l.serviceStart { csv.instant(start.ms) }
    csv.comma()
    if let end = l.serviceEnd { csv.instant(end.ms) }
    csv.comma()
    csv.integer(l.amountMinor)
    csv.comma()
    if let proceeds = l.proceedsMinor { csv.integer(proceeds) }
    csv.comma()
    if let source = l.proceedsSource { csv.field(source.rawValue) }
    csv.comma()
    csv.field(l.inRevenue ? "yes" : "no")
    csv.comma()
    csv.field(l.inRecognition ? "yes" : "no")
    csv.newline()
  }

  /// The columns of revenue_recognition_import.csv.
  package static let importHeader = [
    "source", "transaction_id", "service_period_start", "service_period_end", "amount_minor", "currency",
  ]

  /// `revenue_recognition_import.csv`: every charge with its service period, `source` `App Store` or
  /// `Google Play` (`Stripe` once Stripe is read).
  package static func importCSV(_ lines: [ChargeLine]) -> [UInt8] {
    var all: [UInt8] = []
    importCSV(lines) { (piece: [UInt8]) throws(Never) in all += piece }
    return all
  }

  /// `revenue_recognition_import.csv` in pieces, as ``csv(_:dayOf:piece:emit:)`` writes charges.csv.
  package static func importCSV<E: Error>(
    _ lines: [ChargeLine], piece: Int = pieceBytes, emit: ([UInt8]) throws(E) -> Void
  ) throws(E) {
    var csv = CSVBlock(start: CSVWriter(header: importHeader).bytes, expected: piece)
    for l in lines where l.kind == .charge {
      if csv.count >= piece { try emit(csv.takeBytes()) }
      importRow(l, to: &csv)
    }
    try emit(csv.takeBytes())
  }

  /// Appends `l`'s row of revenue_recognition_import.csv (a charge's; other kinds have none), as
  /// ``row(_:dayOf:to:)`` appends charges.csv's.
  static func importRow(_ l: ChargeLine, to csv: inout CSVBlock) {
    guard l.kind == .charge else { return }
    switch l.store {
    case .appStore: csv.field("App Store")
    case .play: csv.field("Google Play")
    case .stripe: csv.field("Stripe")
    }
    csv.comma()
    csv.field(l.transactionId)
    csv.comma()
    if let start = l.serviceStart { csv.instant(start.ms) }
    csv.comma()
    if let end = l.serviceEnd { csv.instant(end.ms) }
    csv.comma()
    csv.integer(l.amountMinor)
    csv.comma()
    csv.field(l.currency.code)
    csv.newline()
  }

  /// Both files rendered straight from `ledger`'s chains (``ChargeLines/inBlocks(ledger:settled:chainsPerBlock:render:emit:)``),
  /// on every core, each piece handed to `charges` or `imports` in order: the lines are never all in
  /// memory, as rows or as bytes. The bytes are those of ``csv(_:dayOf:piece:emit:)`` and
  /// ``importCSV(_:piece:emit:)`` over ``ChargeLines/lines(ledger:settled:)``.
  package static func write<E: Error>(
    ledger: Ledger, settled: SettledProceeds, dayOf: (Instant) -> CivilDate,
    charges: ([UInt8]) throws(E) -> Void, imports: ([UInt8]) throws(E) -> Void
  ) throws(E) {
    var head = CSVWriter(header: header)
    try charges(head.takeBytes())
    head = CSVWriter(header: importHeader)
    try imports(head.takeBytes())
    try ChargeLines.inBlocks(
      ledger: ledger, settled: settled,
      render: { lines -> ([UInt8], [UInt8]) in
        var all = CSVBlock(start: [], expected: lines.count * 200)
        var charged = CSVBlock(start: [], expected: lines.count * 90)
        for l in lines {
          row(l, dayOf: dayOf, to: &all)
          importRow(l, to: &charged)
        }
        return (all.finish(), charged.finish())
      },
      emit: { (pieces: ([UInt8], [UInt8])) throws(E) in
        if !pieces.0.isEmpty { try charges(pieces.0) }
        if !pieces.1.isEmpty { try imports(pieces.1) }
      })
  }
}
