extension CSVWriter {
  // The spreadsheet guard of the CSV reports (docs/reports.md, "Cells a spreadsheet would run"): a
  // text cell a spreadsheet would read as a formula gets a leading `'`, as OWASP advises; a plain
  // number keeps its text, so `-499` stays the number it is.

  /// Whether `first` (a cell's first byte) is one a spreadsheet starts a formula or command with:
  /// `=`, `+`, `-`, `@`, tab or CR.
  @inline(__always)
  package static func isFormulaLead(_ first: UInt8) -> Bool {
    first == 0x3D || first == 0x2B || first == 0x2D || first == 0x40 || first == 0x09 || first == 0x0D
  }

  /// Whether `cell` must be written with a leading `'`: it starts with a formula lead and is not a
  /// plain number (`-` then digits, optionally `.` and digits: `-5`, `-12.50`).
  @inline(__always)
  package static func needsFormulaGuard<C: Collection<UInt8>>(_ cell: C) -> Bool {
    guard let first = cell.first, isFormulaLead(first) else { return false }
    return !isPlainNegativeNumber(cell)
  }

  /// `-` then one or more digits, optionally `.` and one or more digits; nothing else.
  package static func isPlainNegativeNumber<C: Collection<UInt8>>(_ cell: C) -> Bool {
    var i = cell.makeIterator()
    guard i.next() == 0x2D else { return false }
    var digits = 0
    var fraction = -1
    while let b = i.next() {
      if b >= 0x30 && b <= 0x39 {
        if fraction >= 0 { fraction += 1 } else { digits += 1 }
      } else if b == 0x2E && fraction < 0 && digits > 0 {
        fraction = 0
      } else {
        return false
      }
    }
    return digits > 0 && fraction != 0
  }

  /// The apostrophe a guarded cell starts with.
  package static let formulaGuard: UInt8 = 0x27
}
