// Safety: a row's cells are buffers into its CSVRecord, valid only while the record is (the importer's loop
// body); column index -1 or past the record reads as an empty cell (CSVRecord.field checks it); values kept
// are copied into Strings or integers.

import StoreReconCore
import StoreReconIO

/// One row of a store report as byte cells, with the parsers the report importers share; every
/// failure is a ``RowRejection`` naming the column and the text as written.
///
/// Cells are trimmed of spaces and tabs (Apple writes a blank cell as a single space). A column index
/// of `-1` (an optional column the header lacks) reads as a blank cell. Valid while its record is.
struct ReportCells {
  let record: CSVRecord
  /// One `String` per distinct cell text of the file, for the values every row repeats.
  let interner: StringInterner

  /// The trimmed bytes of column `index`.
  @inline(__always)
  func bytes(_ index: Int) -> UnsafeBufferPointer<UInt8> { ByteText.trimmed(record.field(index)) }

  /// Whether column `index` is blank.
  func isBlank(_ index: Int) -> Bool { bytes(index).isEmpty }

  /// Column `index` as text (empty when blank).
  func text(_ index: Int) -> String { String(decoding: bytes(index), as: UTF8.self) }

  /// Column `index` as text shared with the rows that repeat it (product ids, types, reasons). Up to 15
  /// bytes a `String` is stored inline (no allocation): cheaper to make than to look up.
  func shared(_ index: Int) -> String {
    let cell = bytes(index)
    return cell.count <= 15 ? String(decoding: cell, as: UTF8.self) : interner.intern(cell)
  }

  /// ``shared(_:)``, rejecting a blank cell with "missing `name`".
  func requiredShared(_ index: Int, _ name: String) throws(RowRejection) -> String {
    let cell = bytes(index)
    guard !cell.isEmpty else { throw RowRejection("missing \(name)") }
    return cell.count <= 15 ? String(decoding: cell, as: UTF8.self) : interner.intern(cell)
  }

  /// Column `index` as text; rejects a blank cell with "missing `name`".
  func required(_ index: Int, _ name: String) throws(RowRejection) -> String {
    let cell = bytes(index)
    guard !cell.isEmpty else { throw RowRejection("missing \(name)") }
    return String(decoding: cell, as: UTF8.self)
  }

  /// Column `index` as a Play order id's key (packed, no `String`, where it packs); rejects a blank
  /// cell with "missing `name`" unless `optional`.
  func orderKey(_ index: Int, _ name: String, optional: Bool) throws(RowRejection) -> PlayOrderKey {
    let cell = bytes(index)
    guard optional || !cell.isEmpty else { throw RowRejection("missing \(name)") }
    return PlayOrderKey(bytes: cell)
  }

  /// The physical first cell, trimmed, as text (for trailer lines).
  var firstCell: String { String(decoding: ByteText.trimmed(record.field(0)), as: UTF8.self) }

  /// Whether the physical first cell starts with a digit (a date: a detail row, checked cheaply).
  var firstCellStartsWithDigit: Bool {
    let cell = ByteText.trimmed(record.field(0))
    return !cell.isEmpty && cell[0] >= 0x30 && cell[0] <= 0x39
  }

  /// A whole number, also written with a zero fraction (`1`, `-50`, `1.00`: Apple's DECIMAL(18,2)
  /// units); rejects `1.5` with "`name` '1.5' is not a whole number".
  func wholeNumber(_ index: Int, _ name: String) throws(RowRejection) -> Int64 {
    let cell = bytes(index)
    guard !cell.isEmpty else { throw RowRejection("missing \(name)") }
    func notWhole() -> RowRejection { RowRejection("\(name) \(ByteText.quoted(cell)) is not a whole number") }
    var end = cell.count
    if let point = cell.firstIndex(of: 0x2E) {
      for i in (point + 1)..<cell.count where cell[i] != 0x30 { throw notWhole() }
      end = point
    }
    if let value = ByteText.int64(UnsafeBufferPointer(rebasing: cell[0..<end])) {
      guard MoneyBound.holds(value) else {
        throw RowRejection("\(name) \(ByteText.quoted(cell)) is too large: \(MoneyBound.words)")
      }
      return value
    }
    // `.00` or `-.00`: no digit before the point, zeros after it.
    let signOnly = end == 0 || (end == 1 && (cell[0] == 0x2D || cell[0] == 0x2B))
    guard signOnly, cell.count > end + 1 else { throw notWhole() }
    return 0
  }

  /// The ISO 4217 currency in column `index`.
  func currency(_ index: Int, _ name: String) throws(RowRejection) -> Currency {
    let cell = bytes(index)
    guard !cell.isEmpty else { throw RowRejection("missing \(name)") }
    guard let currency = Currency.named(bytes: cell) else {
      throw RowRejection("\(name) \(ByteText.quoted(cell)) is not an ISO 4217 code")
    }
    guard currency.minorUnits != nil else {
      throw RowRejection("\(name) \(ByteText.quoted(cell)) has no minor unit and cannot hold money")
    }
    return currency
  }

  /// A signed decimal amount in `currency`, as exact minor units (`.70`, `-0.99`, `2990.00`).
  func money(_ index: Int, _ name: String, _ currency: Currency) throws(RowRejection) -> Int64 {
    let cell = bytes(index)
    guard !cell.isEmpty else { throw RowRejection("missing \(name)") }
    do {
      return try currency.minor(decimalBytes: cell)
    } catch {
      throw ReportCells.rejection(name, cell, currency, error)
    }
  }

  /// The reason for a money error, naming the column.
  static func rejection(
    _ name: String, _ cell: UnsafeBufferPointer<UInt8>, _ currency: Currency, _ error: MoneyError
  ) -> RowRejection {
    let text = ByteText.quoted(cell)
    switch error {
    case .tooPrecise(_, let code, let digits):
      return RowRejection("\(name) \(text) has more digits than \(code) allows (\(digits) after the point)")
    case .overflow: return RowRejection("\(name) \(text) is too large: \(MoneyBound.words) (minor units)")
    case .noMinorUnit(let code): return RowRejection("\(name): currency \(code) has no minor unit")
    case .notANumber, .unknownCurrency: return RowRejection("\(name) \(text) is not a decimal number")
    }
  }

  /// An ISO 3166 alpha-2 country, upper-cased (`us` → `US`).
  func country(_ index: Int, _ name: String) throws(RowRejection) -> String {
    let cell = bytes(index)
    guard !cell.isEmpty else { throw RowRejection("missing \(name)") }
    guard cell.count == 2, ReportCells.isLetter(cell[0]), ReportCells.isLetter(cell[1]) else {
      throw RowRejection("\(name) \(ByteText.quoted(cell)) is not an ISO 3166 alpha-2 country code")
    }
    return String(decoding: [cell[0] & 0xDF, cell[1] & 0xDF], as: UTF8.self)
  }

  static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

  /// A date written `MM/DD/YYYY` (one-digit month or day accepted), checking the day exists.
  func usDate(_ index: Int, _ name: String) throws(RowRejection) -> CivilDate {
    let cell = bytes(index)
    guard !cell.isEmpty else { throw RowRejection("missing \(name)") }
    guard let date = ReportCells.usDate(cell) else {
      throw RowRejection("\(name) \(ByteText.quoted(cell)) is not a date MM/DD/YYYY")
    }
    return date
  }

  /// `MM/DD/YYYY` bytes as a date, or `nil`.
  static func usDate(_ cell: UnsafeBufferPointer<UInt8>) -> CivilDate? {
    var parts = (0, 0)
    var slashes = 0
    var value = 0
    var digits = 0
    for b in cell {
      if b == 0x2F {
        guard digits > 0, digits <= 2, slashes < 2 else { return nil }
        if slashes == 0 { parts.0 = value } else { parts.1 = value }
        slashes += 1
        value = 0
        digits = 0
      } else if b >= 0x30 && b <= 0x39 {
        value = value * 10 + Int(b &- 0x30)
        digits += 1
        guard digits <= 4 else { return nil }
      } else {
        return nil
      }
    }
    guard slashes == 2, digits == 4 else { return nil }
    return ReportCells.validDate(year: value, month: parts.0, day: parts.1)
  }

  /// The date, when the month and day exist.
  static func validDate(year: Int, month: Int, day: Int) -> CivilDate? {
    guard month >= 1, month <= 12, day >= 1, day <= CivilDate.daysIn(year: year, month: month) else {
      return nil
    }
    return CivilDate(year: year, month: month, day: day)
  }

  /// A date written `YYYY-MM-DD`; `nil` for a blank cell when `optional`.
  func isoDate(_ index: Int, _ name: String) throws(RowRejection) -> CivilDate {
    let cell = bytes(index)
    guard !cell.isEmpty else { throw RowRejection("missing \(name)") }
    guard let date = CivilDate.parse(String(decoding: cell, as: UTF8.self)) else {
      throw RowRejection("\(name) \(ByteText.quoted(cell)) is not a date YYYY-MM-DD")
    }
    return date
  }

  /// Whether the cell spells `lowercaseWord`, ignoring case.
  func equals(_ index: Int, _ lowercaseWord: StaticString) -> Bool {
    ByteText.equalsIgnoringCase(bytes(index), lowercaseWord)
  }

  /// The cell as a reason's quoted text (`'Foo'`).
  func quoted(_ index: Int) -> String { ByteText.quoted(bytes(index)) }
}
