// Safety: fields are read through buffers valid for the call only; the integer digits are written into a
// 24-byte tuple on the stack, which holds the 19 digits of any Int64 other than Int64.min (written through
// String).

extension CSVWriter {
  // The field-by-field writes that read bytes through a buffer pointer (a field's UTF-8, an integer's
  // digits). Whole rows are written by ``CSVWriter/row(_:)``.

  /// Appends one field of a row being written field by field (a comma first unless `first`), quoted
  /// as ``row(_:)`` quotes and guarded as it guards formulas.
  mutating func field(_ utf8: UnsafeBufferPointer<UInt8>, first: Bool = false) {
    if !first { bytes.append(0x2C) }
    var needsQuotes = false
    for b in utf8 where b == 0x2C || b == 0x22 || b == 0x0A || b == 0x0D {
      needsQuotes = true
      break
    }
    let guarded = CSVWriter.needsFormulaGuard(utf8)
    guard needsQuotes else {
      if guarded { bytes.append(CSVWriter.formulaGuard) }
      bytes.append(contentsOf: utf8)
      return
    }
    bytes.append(0x22)
    if guarded { bytes.append(CSVWriter.formulaGuard) }
    for b in utf8 {
      if b == 0x22 { bytes.append(0x22) }
      bytes.append(b)
    }
    bytes.append(0x22)
  }

  /// Appends one field given as bytes.
  mutating func field(_ utf8: [UInt8], first: Bool = false) {
    utf8.withUnsafeBufferPointer { field($0, first: first) }
  }

  /// Appends one text field.
  mutating func field(_ text: String, first: Bool = false) {
    var text = text
    text.withUTF8 { field($0, first: first) }
  }

  /// Appends a decimal integer field.
  mutating func field(_ value: Int64) {
    bytes.append(0x2C)
    if value == Int64.min {
      bytes.append(contentsOf: String(value).utf8)
      return
    }
    var v = value
    if v < 0 {
      bytes.append(0x2D)
      v = -v
    }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var n = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[n] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
        v /= 10
        n += 1
      } while v > 0
      for i in stride(from: n - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
    }
  }
}
