package import StoreReconCore
import StoreReconPlatform

extension RunPartial {
  /// Reads a partial file's bytes; throws for a wrong header, a `sha256` line that does not match the
  /// content (or none), an unknown tag, a malformed field or a file cut short (no `end` line), with the
  /// line's number.
  package init(parsing bytes: [UInt8]) throws(PartialText.FormatError) {
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)[...]
    guard let first = lines.popFirst(), String(decoding: first, as: UTF8.self) == RunPartial.header else {
      throw PartialText.FormatError(
        line: 1, reason: "not a storerecon partial (expected '\(RunPartial.header)')")
    }
    let content = try RunPartial.checkedContent(bytes)
    lines = content.split(separator: 0x0A, omittingEmptySubsequences: false)[...]
    _ = lines.popFirst()
    var number = 1
    func next() throws(PartialText.FormatError) -> PartialFields {
      number += 1
      guard let line = lines.popFirst() else {
        throw PartialText.FormatError(
          line: number, reason: "the file ends before its 'end' line (cut short?)")
      }
      return PartialFields(values: try PartialText.optionalFields(line, line: number), line: number)
    }
    var head = try next()
    guard try head.text(0) == "partition",
      let spec = PartitionSpec(index: try head.int(1), count: try head.int(2))
    else { throw PartialText.FormatError(line: number, reason: "expected 'partition I N'") }
    head = try next()
    guard try head.text(0) == "date", let date = CivilDate.parse(try head.text(1)) else {
      throw PartialText.FormatError(line: number, reason: "expected 'date YYYY-MM-DD'")
    }
    self.init(partition: spec, date: date)
    for name in ["inputs", "keymap"] {
      let f = try next()
      guard try f.text(0) == name else { throw f.error("expected '\(name) <sha-256>'") }
      if name == "inputs" { inputs = try f.text(1) } else { keymap = try f.text(1) }
    }
    while true {
      var f = try next()
      let tag = try f.text(0)
      if tag == "end" { break }
      try add(tag, &f)
    }
  }

  /// The bytes before the last line, which must be `sha256 <hex>` of exactly them: a partial edited or
  /// damaged after its partition wrote it is refused (docs/partitions.md#the-partial-file).
  static func checkedContent(_ bytes: [UInt8]) throws(PartialText.FormatError) -> ArraySlice<UInt8> {
    let lineCount = bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    let body = bytes.last == 0x0A ? bytes.dropLast() : bytes[...]
    let start = (body.lastIndex(of: 0x0A) ?? -1) + 1
    let fields = String(decoding: body[start...], as: UTF8.self).split(
      separator: "\t", omittingEmptySubsequences: false)
    guard fields.count == 2, fields[0] == "sha256" else {
      throw PartialText.FormatError(
        line: lineCount, reason: "no 'sha256' line after 'end' (cut short, or not written by a partition)")
    }
    let content = bytes[..<start]
    guard SHA256Digest.hex(of: Array(content)) == fields[1] else {
      throw PartialText.FormatError(
        line: lineCount,
        reason: "the content does not match its sha256 line: the partial was changed after its partition "
          + "wrote it; run that partition again")
    }
    return content
  }

  private mutating func add(_ tag: String, _ f: inout PartialFields) throws(PartialText.FormatError) {
    switch tag {
    case "F": findings.append(try f.finding())
    case "N":
      notificationFields[try f.text(1)] = try (2..<f.values.count).map { i throws(PartialText.FormatError) in
        try f.text(i)
      }
    case "R": revenue.append(try f.revenue())
    case "RR", "RW": try addRecognition(tag, f)
    case "CL": try addCharge(f)
    case "C":
      var c = CountsRow(store: try f.store(1), productId: try f.text(2))
      c.chainsPaidThrough = try f.int(3)
      c.entitlementsActive = try f.int(4)
      counts.append(c)
    case "PU": playUnits = playUnits ?? [:]
    case "P": playUnits?[try f.text(1)] = try f.int64(2)
    case "TC": tieOut.cells.append(try f.tieOutCell())
    case "TO":
      tieOut.orders.append(
        TieOutFeedRows.Order(
          orderId: try f.text(1), month: try f.date(2), productId: try f.text(3), currency: try f.currency(4),
          itemMinor: try f.int64(5), feeMinor: try f.int64(6)))
    case "TS": tieOut.stripe.append(try f.stripeFeedLine())
    case "D": duplicates.append(try f.duplicate())
    case "G": grants.append(try f.grant())
    case "U": unchecked[try f.store(1)] = try f.int(2)
    case "IN":
      var e = EngineInput()
      e.counts = InputCounts(read: try f.int(2), accepted: try f.int(3), rejected: try f.int(4))
      e.firstAt = try f.instant(5)
      e.lastAt = try f.instant(6)
      e.unverified = try f.optional(7) == nil ? nil : try f.int(7)
      e.unpriced = try f.optional(8) == nil ? nil : try f.int(8)
      e.signatures = try f.optional(9)
      e.error = try f.optional(10)
      e.duplicates = try f.int(11)
      let index = try f.int(1)
      guard engineInputs[index] == nil else { throw f.error("input \(index) is given twice") }
      engineInputs[index] = e
    case "RJ":
      let index = try f.int(1)
      guard engineInputs[index] != nil else {
        throw f.error("a reject of input \(index) before its 'IN' line")
      }
      engineInputs[index]?.rejects.append(
        Reject(file: try f.text(3), line: try f.int(2), reason: try f.text(4), raw: try f.text(5)))
    case "X": readouts.append(ReadoutPartial(experimentId: try f.text(1)))
    case let t where t.hasPrefix("X"):
      guard !readouts.isEmpty else { throw f.error("a readout line before its 'X' line") }
      try readouts[readouts.count - 1].read(f.values, line: f.line)
    default: throw f.error("unknown line tag '\(tag)'")
    }
  }
}

extension PartialFields {
  func finding() throws(PartialText.FormatError) -> Finding {
    let reasonText = try text(1)
    guard let reason = Finding.Reason(rawValue: reasonText) else {
      throw error("unknown reason '\(reasonText)'")
    }
    let currency = try optional(6) == nil ? nil : try self.currency(6)
    let amount = try optional(7) == nil ? nil : try int64(7)
    var f = Finding(
      reason: reason, store: try store(2), chainKey: try text(3), userId: try text(4), productId: try text(5),
      currency: currency, amountMinor: amount, detail: try text(8))
    f.notificationId = try optional(9)
    f.key = try text(10)  // as the rule made it (a notification's names the notification too)
    return f
  }

  func revenue() throws(PartialText.FormatError) -> RevenueRow {
    var r = RevenueRow(
      day: try date(1), store: try store(2), productId: try text(3), currency: try currency(4))
    r.charges = try int(5)
    r.grossMinor = try int64(6)
    r.taxMinor = try int64(7)
    r.refundsMinor = try int64(8)
    r.refundCount = try int(9)
    r.proceedsMinor = try int64(10)
    let source = try text(11)
    guard let s = ProceedsSource(rawValue: source) else { throw error("unknown proceeds source '\(source)'") }
    r.proceedsSource = s
    r.disputedMinor = try int64(12)
    r.disputeFeesMinor = try int64(13)
    return r
  }

  func tieOutCell() throws(PartialText.FormatError) -> TieOutFeedRows.Cell {
    let sourceText = try text(1)
    guard let source = StoreReportKind(rawValue: sourceText) else {
      throw error("unknown report '\(sourceText)'")
    }
    var cell = TieOutFeedRows.Cell(
      source: source, day: try date(2), productId: try text(3), country: try text(4),
      currency: try currency(5),
      units: try int64(6), grossMinor: try int64(7), proceedsMinor: try int64(8), freeUnits: try int64(9))
    // The transactions behind the cell: their number, then the smallest ids.
    if values.count > 10 {
      let shown = try (11..<values.count).map { i throws(PartialText.FormatError) in try text(i) }
      cell.ids = TieOutIds(shown: shown, count: try int64(10))
    }
    return cell
  }

  func stripeFeedLine() throws(PartialText.FormatError) -> StripeFeedLine {
    let kindText = try text(1)
    guard let kind = StripeFeedLine.Kind(rawValue: kindText) else {
      throw error("unknown Stripe feed line '\(kindText)'")
    }
    guard let at = try instant(7) else { throw error("a Stripe feed line without its instant") }
    var line = StripeFeedLine(
      kind: kind, id: try text(2), chargeId: try text(3), amountMinor: try int64(5),
      currency: try currency(6),
      at: at)
    line.invoiceId = try text(4)
    line.productId = try text(8)
    line.live = try text(9) == "1"
    line.chainKey = try text(10)
    return line
  }

  func duplicate() throws(PartialText.FormatError) -> RecordDuplicate {
    let kindText = try text(1)
    guard let kind = RecordDuplicate.Kind(rawValue: kindText) else {
      throw error("unknown kind '\(kindText)'")
    }
    return RecordDuplicate(
      kind: kind, store: try store(2), id: try text(3), record: try text(4), keptInput: Int32(try int(5)),
      keptLine: try int(6), droppedInput: Int32(try int(7)), droppedLine: try int(8))
  }

  func grant() throws(PartialText.FormatError) -> GrantRow {
    GrantRow(
      source: try text(1), grantId: try text(2), userId: try text(3), productId: try text(4),
      startsAt: try instant(5), endsAt: try instant(6), active: try text(7) == "1", reason: try text(8))
  }
}
