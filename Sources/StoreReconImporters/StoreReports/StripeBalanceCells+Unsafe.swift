// Safety: the cells are trimmed buffers into the current record, valid while it is (the importer's loop
// body); every read checks its index against the cell's count first, and values kept are copied out.

import StoreReconCore
import StoreReconIO

// The balance report's time cells: `2026-11-03 14:05:06` (UTC, as Stripe writes `created_utc`).
extension ReportCells {
  /// Column `index` as an instant: `YYYY-MM-DD HH:MM:SS` (or with a `T`, seconds optional, an optional
  /// `Z` or `+00:00`), or a date alone at 00:00, within the run's time `window`; `nil` for a blank
  /// cell when `optional`.
  func stripeTime(_ index: Int, _ name: String, within window: StoreTimeWindow, optional: Bool = false)
    throws(RowRejection) -> Instant?
  {
    let cell = bytes(index)
    if cell.isEmpty {
      if optional { return nil }
      throw RowRejection("missing \(name)")
    }
    guard let ms = ReportCells.stripeMilliseconds(cell) else {
      throw RowRejection("\(name) \(ByteText.quoted(cell)) is not a UTC time like 2026-11-03 14:05:06")
    }
    if let problem = window.problem(name, ms) { throw RowRejection(problem) }
    return Instant(ms: ms)
  }

  /// `YYYY-MM-DD[( |T)HH:MM[:SS]][Z|+00:00]` as milliseconds since 1970; `nil` when it is not.
  static func stripeMilliseconds(_ cell: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard cell.count >= 10 else { return nil }
    let date = String(decoding: UnsafeBufferPointer(rebasing: cell[0..<10]), as: UTF8.self)
    guard let day = CivilDate.parse(date) else { return nil }
    var end = cell.count
    if cell[end - 1] == 0x5A || cell[end - 1] == 0x7A {
      end -= 1
    } else if end >= 16, cell[end - 6] == 0x2B,
      ByteText.equalsIgnoringCase(UnsafeBufferPointer(rebasing: cell[(end - 5)..<end]), "00:00")
    {
      end -= 6
    }
    guard end > 10 else { return end == 10 ? day.startUTC.ms : nil }
    guard cell[10] == 0x20 || cell[10] == 0x54 else { return nil }
    var parts: [Int64] = []
    var value: Int64 = 0
    var digits = 0
    for i in 11..<end {
      let b = cell[i]
      if b == 0x3A {
        guard digits == 2 else { return nil }
        parts.append(value)
        value = 0
        digits = 0
      } else if b >= 0x30 && b <= 0x39 {
        value = value * 10 + Int64(b &- 0x30)
        digits += 1
        guard digits <= 2 else { return nil }
      } else {
        return nil
      }
    }
    guard digits == 2 else { return nil }
    parts.append(value)
    guard parts.count >= 2, parts.count <= 3, parts[0] < 24, parts[1] < 60, parts.count == 2 || parts[2] < 60
    else { return nil }
    let seconds = parts[0] * 3600 + parts[1] * 60 + (parts.count == 3 ? parts[2] : 0)
    return day.startUTC.ms + seconds * 1000
  }
}
