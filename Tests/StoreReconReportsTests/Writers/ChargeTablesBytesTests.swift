import Testing
import StoreReconCore
import StoreReconReports

/// charges.csv and revenue_recognition_import.csv are formatted field by field (no `String` per field):
/// their bytes are exactly those of ``CSVWriter/row(_:)`` over each field's text, for ids that need
/// quotes or the formula guard, instants before 1970 and after 9999, "never", negative amounts and the
/// fields a refund or a void leaves empty.
@Suite struct ChargeTablesBytesTests {
  static func day(_ at: Instant) -> CivilDate {
    CivilDate(daysSinceEpoch: (at.ms + 3_600_000).floorDivided(by: Instant.msPerDay).0)
  }

  static func lines() -> [ChargeLine] {
    let ids = [
      "1000000123", "GPA.3312-1234-5678-90123..4", "sub_1Pq,x", "=HYPERLINK(1)", "-42", "-4.5x", "a\"b", "",
    ]
    let instants: [Instant] = [
      Instant(ms: 1_790_000_000_123), Instant(ms: -1), Instant(ms: -86_400_000 * 800_000),
      Instant(ms: 253_402_300_799_999), Instant(ms: 253_402_300_800_000), Instant.distantFuture,
      Instant(ms: 0),
    ]
    var lines: [ChargeLine] = []
    for (i, id) in ids.enumerated() {
      for (j, at) in instants.enumerated() {
        let kind = ChargeLine.Kind.allCases[(i + j) % 3]
        let store = Store.allCases[(i * 7 + j) % Store.allCases.count]
        lines.append(
          ChargeLine(
            kind: kind, store: store, chainKey: ids[(i + 1) % ids.count], transactionId: id,
            productId: ids[(j + 2) % ids.count], currency: Currency.all[(i * 11 + j) % Currency.all.count],
            at: at,
            serviceStart: kind == .charge ? at : nil,
            serviceEnd: kind == .charge ? instants[(j + 3) % 7] : nil,
            amountMinor: [499, -1, 0, Int64.max, Int64.min][(i + j) % 5],
            proceedsMinor: kind == .void ? nil : [424, -424, Int64.min][j % 3],
            proceedsSource: kind == .void ? nil : ProceedsSource.allCases[i % 3], inRevenue: kind != .void,
            inRecognition: i % 2 == 0))
      }
    }
    return lines
  }

  /// charges.csv as each field's text through ``CSVWriter/row(_:)``.
  static func reference(_ lines: [ChargeLine]) -> [UInt8] {
    var csv = CSVWriter(header: ChargeTables.header)
    for l in lines {
      let day = day(l.at)
      csv.row([
        l.kind.rawValue, l.store.rawValue, l.chainKey, l.transactionId, l.productId, l.currency.code,
        l.at.description, day.description, ReportMonth(day).description, l.serviceStart?.description ?? "",
        l.serviceEnd?.description ?? "", String(l.amountMinor), l.proceedsMinor.map { String($0) } ?? "",
        l.proceedsSource?.rawValue ?? "", l.inRevenue ? "yes" : "no", l.inRecognition ? "yes" : "no",
      ])
    }
    return csv.bytes
  }

  /// revenue_recognition_import.csv as each field's text through ``CSVWriter/row(_:)``.
  static func importReference(_ lines: [ChargeLine]) -> [UInt8] {
    var csv = CSVWriter(header: ChargeTables.importHeader)
    for l in lines where l.kind == .charge {
      let source = [Store.appStore: "App Store", .play: "Google Play", .stripe: "Stripe"][l.store] ?? ""
      csv.row([
        source, l.transactionId, l.serviceStart?.description ?? "", l.serviceEnd?.description ?? "",
        String(l.amountMinor), l.currency.code,
      ])
    }
    return csv.bytes
  }

  @Test func theRowsAreCSVWritersBytes() {
    let lines = Self.lines()
    let charges = ChargeTables.csv(lines, dayOf: Self.day)
    #expect(
      String(decoding: charges, as: UTF8.self) == String(decoding: Self.reference(lines), as: UTF8.self))
    let imports = ChargeTables.importCSV(lines)
    #expect(
      String(decoding: imports, as: UTF8.self) == String(decoding: Self.importReference(lines), as: UTF8.self)
    )
    let text = String(decoding: charges, as: UTF8.self)
    #expect(text.contains("\"sub_1Pq,x\"") && text.contains("'=HYPERLINK(1)") && text.contains(",never,"))
    #expect(text.contains("\"a\"\"b\"") && text.contains(",-42,") && text.contains("'-4.5x"))
  }

  @Test func inPiecesTheyAreTheSameBytes() {
    let lines = Self.lines()
    var pieces: [UInt8] = []
    ChargeTables.csv(lines, dayOf: Self.day, piece: 300) { (piece: [UInt8]) throws(Never) in pieces += piece }
    #expect(pieces == Self.reference(lines))
  }
}
