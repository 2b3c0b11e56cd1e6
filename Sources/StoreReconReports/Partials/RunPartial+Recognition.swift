import StoreReconCore

extension RunPartial {
  /// The `RR` and `RW` lines of the partition's revenue recognition sums, sorted (docs/partitions.md).
  func recognitionLines() -> [[String?]] {
    var lines: [[String?]] = []
    for cell in recognition.cells.keys.sorted() {
      let a = recognition.cells[cell] ?? RecognitionSums.Amounts()
      lines.append([
        "RR", cell.store.rawValue, cell.productId, cell.currency.code, cell.month.description,
        String(a.billed), String(a.refunded), String(a.recognized),
      ])
    }
    for flow in recognition.waterfall.keys.sorted() {
      lines.append([
        "RW", flow.store.rawValue, flow.currency.code, flow.billedMonth.description,
        flow.recognizedMonth.description, String(recognition.waterfall[flow] ?? 0),
      ])
    }
    return lines
  }

  /// Reads an `RR` or `RW` line into ``recognition``.
  mutating func addRecognition(_ tag: String, _ f: PartialFields) throws(PartialText.FormatError) {
    func month(_ i: Int) throws(PartialText.FormatError) -> ReportMonth {
      let text = try f.text(i)
      guard let m = ReportMonth.parse(text) else { throw f.error("not a month (YYYY-MM): '\(text)'") }
      return m
    }
    var overflow = false
    if tag == "RR" {
      let cell = RecognitionSums.Cell(
        store: try f.store(1), currency: try f.currency(3), productId: try f.text(2), month: try month(4))
      let a = RecognitionSums.Amounts(
        billed: try f.int64(5), refunded: try f.int64(6), recognized: try f.int64(7))
      recognition.cells[cell, default: .init()].add(a, overflow: &overflow)
    } else {
      let flow = RecognitionSums.Flow(
        store: try f.store(1), currency: try f.currency(2), billedMonth: try month(3),
        recognizedMonth: try month(4))
      recognition.waterfall[flow, default: 0].add(try f.int64(5), overflow: &overflow)
    }
    if overflow { throw f.error("a revenue recognition sum overflows a 64-bit count") }
  }

  /// The partitions' recognition sums added up; an overflow is an error, never a wrap.
  static func mergedRecognition(_ ordered: [RunPartial]) throws(PartialMergeError) -> RecognitionSums {
    var out = RecognitionSums()
    for p in ordered { out.add(p.recognition) }
    guard !out.overflowed else {
      throw PartialMergeError("a revenue recognition sum overflows a 64-bit count of minor units")
    }
    return out
  }
}
