import StoreReconCore

extension RunPartial {
  /// The `CL` lines: the partition's charges.csv lines (docs/partitions.md).
  func chargeLines() -> [[String?]] {
    charges.map(RunPartial.chargeFields)
  }

  /// The fields of `l`'s `CL` line.
  static func chargeFields(_ l: ChargeLine) -> [String?] {
    [
      "CL", l.kind.rawValue, l.store.rawValue, l.chainKey, l.transactionId, l.productId, l.currency.code,
      String(l.at.ms), l.serviceStart.map { String($0.ms) }, l.serviceEnd.map { String($0.ms) },
      String(l.amountMinor), l.proceedsMinor.map { String($0) }, l.proceedsSource?.rawValue,
      l.inRevenue ? "1" : "0", l.inRecognition ? "1" : "0",
    ]
  }

  /// Reads a `CL` line into ``charges``.
  mutating func addCharge(_ f: PartialFields) throws(PartialText.FormatError) {
    charges.append(try RunPartial.chargeLine(f))
  }

  /// The charge a `CL` line holds.
  static func chargeLine(_ f: PartialFields) throws(PartialText.FormatError) -> ChargeLine {
    let kindText = try f.text(1)
    guard let kind = ChargeLine.Kind(rawValue: kindText) else { throw f.error("unknown kind '\(kindText)'") }
    var source: ProceedsSource?
    if let text = try f.optional(12) {
      guard let s = ProceedsSource(rawValue: text) else { throw f.error("unknown proceeds source '\(text)'") }
      source = s
    }
    guard let at = try f.instant(7) else { throw f.error("a charge line without its instant") }
    return ChargeLine(
      kind: kind, store: try f.store(2), chainKey: try f.text(3), transactionId: try f.text(4),
      productId: try f.text(5), currency: try f.currency(6), at: at, serviceStart: try f.instant(8),
      serviceEnd: try f.instant(9), amountMinor: try f.int64(10),
      proceedsMinor: try f.optional(11) == nil ? nil : try f.int64(11), proceedsSource: source,
      inRevenue: try f.text(13) == "1", inRecognition: try f.text(14) == "1")
  }
}
