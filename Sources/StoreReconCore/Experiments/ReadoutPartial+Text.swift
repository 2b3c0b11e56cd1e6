extension ReadoutPartial {
  /// The partial's lines after its `X <experiment id>` line, as ``PartialText`` fields: `XP` a
  /// credited user, `XA` and `XC` an arm's tally (its counters, then one line per currency row and
  /// `*` for the reporting currency), `XG` an FX gap, `XO` a user's net in another currency, `XL` a
  /// lineage row. Currencies by ISO code, instants in milliseconds.
  package func lines() -> [[String?]] {
    var out: [[String?]] = []
    for id in people.keys.sorted() {
      guard let p = people[id] else { continue }
      out.append([
        "XP", id, String(p.firstPaidAt), String(p.reportingNet), String(p.net), code(p.firstPaidCurrency),
        code(p.trialCurrency), code(p.netCurrency), flag(p.trial), flag(p.trialConverted), flag(p.credited),
        flag(p.mixed),
      ])
    }
    for (a, t) in tallies.enumerated() {
      out.append([
        "XA", String(a), String(t.chainsAssignedAfterPurchase), String(t.chainsExcluded),
        String(t.chainsOfOtherArmsProducts), t.renewalsByNumber.map(String.init).joined(separator: ","),
        t.proceedsByDayIndex.map(String.init).joined(separator: ","),
      ])
      out.append(["XC", String(a), "*"] + ReadoutPartial.fields(t.reporting))
      for i in t.byCurrency.indices where t.hasRow[i] {
        out.append(["XC", String(a), Currency(tableIndex: i).code] + ReadoutPartial.fields(t.byCurrency[i]))
      }
    }
    for g in gaps {
      out.append(["XG", g.currency.code, g.day.description, g.store.rawValue, g.chainKey, g.transactionId])
    }
    for id in otherNet.keys.sorted() {
      for (c, amount) in (otherNet[id] ?? [:]).sorted(by: { $0.key.code < $1.key.code }) {
        out.append(["XO", id, c.code, String(amount)])
      }
    }
    for r in lineage {
      out.append([
        "XL", r.armId, r.userId, r.store.rawValue, r.chainKey, r.transactionId, String(r.renewalNumber),
        String(r.chargedAt.ms), r.currency.code, String(r.grossMinor), String(r.proceedsMinor),
        r.reportingMinor.map(String.init),
      ])
    }
    return out
  }

  private func code(_ handle: UInt16) -> String {
    handle == 0 ? "" : Currency(tableIndex: Int(handle) - 1).code
  }
  private func flag(_ b: Bool) -> String { b ? "1" : "0" }

  static func fields(_ t: ArmTally.Totals) -> [String?] {
    [
      t.renewals, t.refunds, Int(t.refundsMinor), Int(t.grossMinor), Int(t.proceedsMinor),
      t.subscriptionLineages,
      t.matureLineages, t.charges, t.settledCharges,
    ].map { String($0) }
  }

  /// Reads one of the lines ``lines()`` writes (its tag first).
  package mutating func read(_ f: [String?], line: Int) throws(PartialText.FormatError) {
    let r = ReadoutFields(values: f, line: line)
    switch try r.text(0) {
    case "XP":
      var p = ArmTally.Person()
      p.firstPaidAt = try r.int(2)
      p.reportingNet = try r.int(3)
      p.net = try r.int(4)
      p.firstPaidCurrency = try r.handle(5)
      p.trialCurrency = try r.handle(6)
      p.netCurrency = try r.handle(7)
      (p.trial, p.trialConverted, p.credited, p.mixed) = (
        try r.text(8) == "1", try r.text(9) == "1", try r.text(10) == "1", try r.text(11) == "1"
      )
      people[try r.text(1)] = p
    case "XA":
      let a = try r.int(1)
      let days = try r.list(6)
      while tallies.count <= a { tallies.append(ArmTally(days: days.count)) }
      tallies[Int(a)].chainsAssignedAfterPurchase = Int(try r.int(2))
      tallies[Int(a)].chainsExcluded = Int(try r.int(3))
      tallies[Int(a)].chainsOfOtherArmsProducts = Int(try r.int(4))
      tallies[Int(a)].renewalsByNumber = try r.list(5).map { Int($0) }
      tallies[Int(a)].proceedsByDayIndex = days
    case "XC": try readTotals(r)
    case "XG":
      gaps.append(
        FXGap(
          currency: try r.currency(1), day: try r.date(2), store: try r.store(3), chainKey: try r.text(4),
          transactionId: try r.text(5)))
    case "XO": otherNet[try r.text(1), default: [:]][try r.currency(2)] = try r.int(3)
    case "XL": lineage.append(try r.charge(experimentId: experimentId))
    case let tag: throw r.error("unknown readout line tag '\(tag)'")
    }
  }

  private mutating func readTotals(_ r: ReadoutFields) throws(PartialText.FormatError) {
    let a = Int(try r.int(1))
    guard a < tallies.count else { throw r.error("a currency row before its arm's XA line") }
    var t = ArmTally.Totals()
    t.renewals = Int(try r.int(3))
    t.refunds = Int(try r.int(4))
    t.refundsMinor = try r.int(5)
    t.grossMinor = try r.int(6)
    t.proceedsMinor = try r.int(7)
    t.subscriptionLineages = Int(try r.int(8))
    t.matureLineages = Int(try r.int(9))
    t.charges = Int(try r.int(10))
    t.settledCharges = Int(try r.int(11))
    if try r.text(2) == "*" {
      tallies[a].reporting = t
    } else {
      let c = try r.currency(2)
      tallies[a].hasRow[c.tableIndex] = true
      tallies[a].byCurrency[c.tableIndex] = t
    }
  }
}

/// One readout line's fields, with typed accessors that name the line on failure.
struct ReadoutFields {
  var values: [String?]
  var line: Int

  func error(_ reason: String) -> PartialText.FormatError {
    PartialText.FormatError(line: line, reason: reason)
  }

  func text(_ i: Int) throws(PartialText.FormatError) -> String {
    guard i < values.count, let v = values[i] else { throw error("field \(i + 1) is missing") }
    return v
  }

  func int(_ i: Int) throws(PartialText.FormatError) -> Int64 {
    let t = try text(i)
    guard let v = Int64(t) else { throw error("field \(i + 1) '\(t)' is not an integer") }
    return v
  }

  func list(_ i: Int) throws(PartialText.FormatError) -> [Int64] {
    let t = try text(i)
    if t.isEmpty { return [] }
    var out: [Int64] = []
    for part in t.split(separator: ",", omittingEmptySubsequences: false) {
      guard let v = Int64(part) else { throw error("field \(i + 1) has '\(part)', not an integer") }
      out.append(v)
    }
    return out
  }

  func currency(_ i: Int) throws(PartialText.FormatError) -> Currency {
    let t = try text(i)
    guard let c = Currency.named(t) else { throw error("unknown currency '\(t)'") }
    return c
  }

  /// A currency handle (table index + 1; 0 for none, written as an empty field).
  func handle(_ i: Int) throws(PartialText.FormatError) -> UInt16 {
    try text(i).isEmpty ? 0 : UInt16(try currency(i).tableIndex + 1)
  }

  func date(_ i: Int) throws(PartialText.FormatError) -> CivilDate {
    let t = try text(i)
    guard let d = CivilDate.parse(t) else { throw error("'\(t)' is not a date") }
    return d
  }

  func store(_ i: Int) throws(PartialText.FormatError) -> Store {
    let t = try text(i)
    guard let s = Store(rawValue: t) else { throw error("unknown store '\(t)'") }
    return s
  }

  func charge(experimentId: String) throws(PartialText.FormatError) -> CreditedCharge {
    let reporting: Int64? = values.count > 11 && values[11] != nil ? try int(11) : nil
    return CreditedCharge(
      experimentId: experimentId, armId: try text(1), userId: try text(2), store: try store(3),
      chainKey: try text(4), transactionId: try text(5), renewalNumber: Int(try int(6)),
      chargedAt: Instant(ms: try int(7)), currency: try currency(8), grossMinor: try int(9),
      proceedsMinor: try int(10), reportingMinor: reporting)
  }
}
