// Safety: the cells are trimmed buffers into the current record, valid while it is; every loop checks `i <
// cell.count` before it reads, and month names are compared only over the cell's count after checking it fits
// the name.

import StoreReconCore
import StoreReconIO

// The earnings report's date and time cells: `Sep 3, 2026` and `5:05:59 PM PDT` / `10:01:02 PDT`.
extension ReportCells {
  /// `Transaction Date`: `MMM d, yyyy` (`Sep 3, 2026`; a full month name is accepted too), or ISO
  /// `YYYY-MM-DD`.
  func playDate(_ index: Int, _ name: String) throws(RowRejection) -> CivilDate {
    let cell = bytes(index)
    guard !cell.isEmpty else { throw RowRejection("missing \(name)") }
    if let date = ReportCells.monthDayYear(cell) ?? CivilDate.parse(String(decoding: cell, as: UTF8.self)) {
      return date
    }
    throw RowRejection("\(name) \(ByteText.quoted(cell)) is not a date like Sep 3, 2026")
  }

  static let monthNames: [[UInt8]] = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december",
  ].map { Array($0.utf8) }

  /// The month (1–12) `word` names: its first three letters, its full name, or `Sept`; ASCII case ignored.
  static func month(_ word: UnsafeBufferPointer<UInt8>) -> Int? {
    let n = word.count
    for (index, name) in monthNames.enumerated() {
      guard n <= name.count, n == 3 || n == name.count || (n == 4 && index == 8) else { continue }
      var same = true
      for i in 0..<n where word[i] | 0x20 != name[i] {
        same = false
        break
      }
      if same { return index + 1 }
    }
    return nil
  }

  /// `Sep 3, 2026` as a date, or `nil`.
  static func monthDayYear(_ cell: UnsafeBufferPointer<UInt8>) -> CivilDate? {
    var i = 0
    while i < cell.count, isLetter(cell[i]) { i += 1 }
    guard let month = month(UnsafeBufferPointer(rebasing: cell[0..<i])) else { return nil }
    guard let (day, afterDay) = number(cell, skippingSpacesFrom: i, maxDigits: 2), afterDay < cell.count,
      cell[afterDay] == 0x2C, let (year, end) = number(cell, skippingSpacesFrom: afterDay + 1, maxDigits: 4),
      end == cell.count, end - afterDay >= 5
    else { return nil }
    return validDate(year: year, month: month, day: day)
  }

  /// The digits after optional spaces from `start`: their value and the index after them.
  static func number(_ cell: UnsafeBufferPointer<UInt8>, skippingSpacesFrom start: Int, maxDigits: Int)
    -> (Int, Int)?
  {
    var i = start
    while i < cell.count, cell[i] == 0x20 { i += 1 }
    let first = i
    var value = 0
    while i < cell.count, cell[i] >= 0x30, cell[i] <= 0x39, i - first < maxDigits {
      value = value * 10 + Int(cell[i] &- 0x30)
      i += 1
    }
    return i > first ? (value, i) : nil
  }

  /// `Transaction Time` on `day` as an instant: `h:mm:ss`, an optional `AM`/`PM`, and a zone (`PDT`
  /// UTC−7, `PST` UTC−8, `UTC`/`GMT`). `nil` for a blank cell, no zone or an unknown zone; rejects text
  /// that is not such a time.
  func playTime(_ index: Int, _ name: String, on day: CivilDate) throws(RowRejection) -> Instant? {
    let cell = bytes(index)
    if cell.isEmpty { return nil }
    guard let (seconds, zoneStart) = ReportCells.clock(cell) else {
      throw RowRejection("\(name) \(ByteText.quoted(cell)) is not a time like 5:05:59 PM PDT")
    }
    let zone = UnsafeBufferPointer(rebasing: cell[zoneStart..<cell.count])
    let offsetHours: Int64
    if ByteText.equalsIgnoringCase(zone, "pdt") {
      offsetHours = -7
    } else if ByteText.equalsIgnoringCase(zone, "pst") {
      offsetHours = -8
    } else if ByteText.equalsIgnoringCase(zone, "utc") || ByteText.equalsIgnoringCase(zone, "gmt")
      || ByteText.equalsIgnoringCase(zone, "z")
    {
      offsetHours = 0
    } else {
      return nil
    }
    return day.startUTC.adding(ms: (Int64(seconds) - offsetHours * 3600) * 1000)
  }

  /// Seconds after midnight of `h:mm:ss [AM|PM] [zone]`, and where the zone word starts (the end when
  /// there is none); `nil` when the text is not such a time.
  static func clock(_ cell: UnsafeBufferPointer<UInt8>) -> (Int, Int)? {
    guard let (hour, h) = number(cell, skippingSpacesFrom: 0, maxDigits: 2), h < cell.count, cell[h] == 0x3A,
      let (minute, m) = number(cell, skippingSpacesFrom: h + 1, maxDigits: 2), m - h == 3, m < cell.count,
      cell[m] == 0x3A, let (second, s) = number(cell, skippingSpacesFrom: m + 1, maxDigits: 2), s - m == 3,
      minute < 60, second < 61
    else { return nil }
    // At most two words after the time: `AM`/`PM` and the zone.
    var firstWord: Range<Int>?
    var secondWord: Range<Int>?
    var i = s
    while i < cell.count {
      guard cell[i] == 0x20, secondWord == nil else { return nil }
      while i < cell.count, cell[i] == 0x20 { i += 1 }
      let start = i
      while i < cell.count, cell[i] != 0x20 { i += 1 }
      if firstWord == nil { firstWord = start..<i } else { secondWord = start..<i }
    }
    var hours = hour
    var zone = firstWord
    if let firstWord {
      let word = UnsafeBufferPointer(rebasing: cell[firstWord])
      let pm = ByteText.equalsIgnoringCase(word, "pm")
      if pm || ByteText.equalsIgnoringCase(word, "am") {
        guard hour >= 1 && hour <= 12 else { return nil }
        hours = hour % 12 + (pm ? 12 : 0)
        zone = secondWord
      } else if secondWord != nil {
        return nil
      }
    }
    guard hours <= 23 else { return nil }
    return (hours * 3600 + minute * 60 + second, zone?.lowerBound ?? cell.count)
  }
}

extension ReportCells {
  /// The `Transaction Type` spelled by `bytes`, any case (byte by byte: no text per row).
  static func transactionType(_ bytes: UnsafeBufferPointer<UInt8>) -> PlayEarningsRow.TransactionType? {
    if ByteText.equalsIgnoringCase(bytes, "charge") { return .charge }
    if ByteText.equalsIgnoringCase(bytes, "google fee") { return .googleFee }
    if ByteText.equalsIgnoringCase(bytes, "tax") { return .tax }
    if ByteText.equalsIgnoringCase(bytes, "charge refund") { return .chargeRefund }
    if ByteText.equalsIgnoringCase(bytes, "google fee refund") { return .googleFeeRefund }
    if ByteText.equalsIgnoringCase(bytes, "tax refund") { return .taxRefund }
    if ByteText.equalsIgnoringCase(bytes, "adjustment") { return .adjustment }
    return nil
  }
}
