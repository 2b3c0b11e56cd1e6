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
        t.immatureUntil.sorted().map(String.init).joined(separator: ","),
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
    let r = PartialFields(values: f, line: line)
    switch try r.text(0) {
    case "XP":
      var p = ArmTally.Person()
      p.firstPaidAt = try r.int64(2)
      p.reportingNet = try r.int64(3)
      p.net = try r.int64(4)
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
      tallies[a].chainsAssignedAfterPurchase = try r.int(2)
      tallies[a].chainsExcluded = try r.int(3)
      tallies[a].chainsOfOtherArmsProducts = try r.int(4)
      tallies[a].renewalsByNumber = try r.list(5).map { Int($0) }
      tallies[a].proceedsByDayIndex = days
      tallies[a].immatureUntil = f.count > 7 ? try r.list(7) : []
    case "XC": try readTotals(r)
    case "XG":
      gaps.append(
        FXGap(
          currency: try r.currency(1), day: try r.date(2), store: try r.store(3), chainKey: try r.text(4),
          transactionId: try r.text(5)))
    case "XO": otherNet[try r.text(1), default: [:]][try r.currency(2)] = try r.int64(3)
    case "XL": lineage.append(try r.charge(experimentId: experimentId))
    case let tag: throw r.error("unknown readout line tag '\(tag)'")
    }
  }

  private mutating func readTotals(_ r: PartialFields) throws(PartialText.FormatError) {
    let a = try r.int(1)
    guard a < tallies.count else { throw r.error("a currency row before its arm's XA line") }
    var t = ArmTally.Totals()
    t.renewals = try r.int(3)
    t.refunds = try r.int(4)
    t.refundsMinor = try r.int64(5)
    t.grossMinor = try r.int64(6)
    t.proceedsMinor = try r.int64(7)
    t.subscriptionLineages = try r.int(8)
    t.matureLineages = try r.int(9)
    t.charges = try r.int(10)
    t.settledCharges = try r.int(11)
    if try r.text(2) == "*" {
      tallies[a].reporting = t
    } else {
      let c = try r.currency(2)
      tallies[a].hasRow[c.tableIndex] = true
      tallies[a].byCurrency[c.tableIndex] = t
    }
  }
}

extension PartialFields {
  /// A lineage row (`XL`) of experiment `experimentId`.
  func charge(experimentId: String) throws(PartialText.FormatError) -> CreditedCharge {
    CreditedCharge(
      experimentId: experimentId, armId: try text(1), userId: try text(2), store: try store(3),
      chainKey: try text(4), transactionId: try text(5), renewalNumber: try int(6),
      chargedAt: Instant(ms: try int64(7)), currency: try currency(8), grossMinor: try int64(9),
      proceedsMinor: try int64(10), reportingMinor: try optional(11) == nil ? nil : try int64(11))
  }
}
