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

  static let monthNames = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december",
  ]

  /// `Sep 3, 2026` as a date, or `nil`.
  static func monthDayYear(_ cell: UnsafeBufferPointer<UInt8>) -> CivilDate? {
    var i = 0
    var word: [UInt8] = []
    while i < cell.count, isLetter(cell[i]) {
      word.append(cell[i] | 0x20)
      i += 1
    }
    let text = String(decoding: word, as: UTF8.self)
    guard text.count >= 3,
      let month = monthNames.firstIndex(where: {
        $0 == text || $0.prefix(3) == text || text == "sept" && $0 == "september"
      })
    else { return nil }
    guard let (day, afterDay) = number(cell, skippingSpacesFrom: i, maxDigits: 2), afterDay < cell.count,
      cell[afterDay] == 0x2C, let (year, end) = number(cell, skippingSpacesFrom: afterDay + 1, maxDigits: 4),
      end == cell.count, end - afterDay >= 5
    else { return nil }
    return validDate(year: year, month: month + 1, day: day)
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
    guard let (seconds, zone) = ReportCells.clock(cell) else {
      throw RowRejection("\(name) \(ByteText.quoted(cell)) is not a time like 5:05:59 PM PDT")
    }
    let offsetHours: Int64
    switch zone {
    case "pdt": offsetHours = -7
    case "pst": offsetHours = -8
    case "utc", "gmt", "z": offsetHours = 0
    default: return nil
    }
    return day.startUTC.adding(ms: (Int64(seconds) - offsetHours * 3600) * 1000)
  }

  /// Seconds after midnight and the lower-cased zone word (empty when none) of `h:mm:ss [AM|PM] [zone]`.
  static func clock(_ cell: UnsafeBufferPointer<UInt8>) -> (Int, String)? {
    guard let (hour, h) = number(cell, skippingSpacesFrom: 0, maxDigits: 2), h < cell.count, cell[h] == 0x3A,
      let (minute, m) = number(cell, skippingSpacesFrom: h + 1, maxDigits: 2), m - h == 3, m < cell.count,
      cell[m] == 0x3A, let (second, s) = number(cell, skippingSpacesFrom: m + 1, maxDigits: 2), s - m == 3,
      minute < 60, second < 61
    else { return nil }
    var words: [String] = []
    var i = s
    while i < cell.count {
      guard cell[i] == 0x20 else { return nil }
      while i < cell.count, cell[i] == 0x20 { i += 1 }
      var word: [UInt8] = []
      while i < cell.count, cell[i] != 0x20 {
        word.append(isLetter(cell[i]) ? cell[i] | 0x20 : cell[i])
        i += 1
      }
      words.append(String(decoding: word, as: UTF8.self))
    }
    var hours = hour
    if let first = words.first, first == "am" || first == "pm" {
      guard hour >= 1 && hour <= 12 else { return nil }
      hours = hour % 12 + (first == "pm" ? 12 : 0)
      words.removeFirst()
    } else if hour > 23 {
      return nil
    }
    guard words.count <= 1 else { return nil }
    return (hours * 3600 + minute * 60 + second, words.first ?? "")
  }
}
