import StoreReconCore

extension ReportSummary {
  /// The summary's sections, in order: status, the price tests when one has a readout (a product
  /// manager reads only that), findings, largest findings, revenue, tie-out, payouts, the price tests'
  /// "not configured" line otherwise, then the inputs (what a reader acts on first, the files last).
  package var sections: [SummarySection] {
    let readoutFirst = !(facts.experiments ?? []).isEmpty
    return [statusSection] + (readoutFirst ? [experimentsSection] : []) + [
      findingsSection, largestSection, revenueSection, tieOutSection, payoutsSection,
    ] + (readoutFirst ? [] : [experimentsSection]) + [inputsSection]
  }

  var statusSection: SummarySection {
    var blocks: [SummarySection.Block] = [.paragraph(runStatus.line)]
    for breach in breaches { blocks.append(.paragraph("ALERT \(breach.text)")) }
    for reason in facts.incomplete { blocks.append(.paragraph("INCOMPLETE \(reason)")) }
    let attention = RunStatus.attentionCauses(statusInputs).details
    for line in attention {
      // The settled cases are no cause of attention: said plainly, after the causes.
      blocks.append(
        .paragraph(
          line.hasPrefix("settled (") ? "Settled" + line.dropFirst("settled".count) : "ATTENTION \(line)"))
    }
    if breaches.isEmpty {
      blocks.append(
        .paragraph(
          facts.alerts.isEmpty
            ? "No thresholds configured (config \"alerts\")."
            : "No threshold exceeded (\(facts.alerts.map(\.name).joined(separator: ", ")))."))
    }
    if facts.incomplete.isEmpty {
      blocks.append(.paragraph("Every input covers \(facts.date) (\(facts.timeZone))."))
    }
    return SummarySection(title: "Status", blocks: blocks)
  }

  /// What the status was decided from (for the Status section's ATTENTION lines).
  var statusInputs: RunStatus.Inputs { RunStatus.Inputs(facts, breaches: breaches) }

  /// The inputs in one line when every one was read in full; otherwise that line, then a table of only
  /// the inputs with rejected rows, an error or a note (the whole list is in manifest.json and the
  /// workbook's Summary sheet).
  var inputsSection: SummarySection {
    var table = SummaryTable(
      headers: ["input", "file", "read", "accepted", "rejected", "first record", "last record"],
      rightAligned: [2, 3, 4])
    let flagged = facts.inputs.filter(Self.needsALook)
    for input in flagged {
      let c = input.counts
      table.rows.append([
        input.role, input.path, Grouped.count(c.read), Grouped.count(c.accepted), Grouped.count(c.rejected),
        input.firstAt.map(\.description) ?? "—", input.lastAt.map(\.description) ?? "—",
      ])
    }
    var blocks: [SummarySection.Block] = [.paragraph(inputsLine(flagged: flagged.count))]
    if !flagged.isEmpty {
      let noun = flagged.count == 1 ? "1 input" : "\(Grouped.count(flagged.count)) inputs"
      blocks.append(.folded("Inputs with rejected rows, an error or a note (\(noun))", table))
    }
    for input in facts.inputs {
      if let error = input.error { blocks.append(.paragraph("FAILED \(input.path): \(error)")) }
    }
    for input in facts.inputs { if let line = Self.signatureLine(input) { blocks.append(.paragraph(line)) } }
    for input in facts.inputs { if let line = Self.unpricedLine(input) { blocks.append(.paragraph(line)) } }
    for line in facts.inputNotes { blocks.append(.paragraph(line)) }
    if facts.inputs.contains(where: { $0.counts.rejected > 0 }) {
      blocks.append(.paragraph("Rejected rows are listed with file, line and reason in rejects/."))
      if let step = NextStep.of(.rejectedRows) {
        blocks.append(.nextSteps([SummaryStep(step, docsBase: facts.docsBase)]))
      }
    }
    return SummarySection(title: "Inputs", blocks: blocks)
  }

  /// `57 inputs, all read in full: 123,456 rows, 0 rejected (each file in manifest.json).`, or with
  /// `flagged` inputs: how many rows were rejected and how many inputs the table below lists.
  func inputsLine(flagged: Int) -> String {
    let n = facts.inputs.count
    let inputs = n == 1 ? "1 input" : "\(Grouped.count(n)) inputs"
    let read = Grouped.count(facts.inputs.reduce(0) { $0 + $1.counts.read })
    let rejected = Grouped.count(facts.inputs.reduce(0) { $0 + $1.counts.rejected })
    if flagged == 0 {
      return "\(inputs), all read in full: \(read) rows, \(rejected) rejected (each file in manifest.json)."
    }
    let them = flagged == 1 ? "1 has" : "\(Grouped.count(flagged)) have"
    return "\(inputs): \(read) rows read, \(rejected) rejected; \(them) rejects, an error or a note (below), "
      + "the others were read in full (each file in manifest.json)."
  }

  /// Whether an input shows in the Inputs table: rows rejected, not read at all, or a line about its
  /// signatures or unpriced transactions.
  static func needsALook(_ input: InputReport) -> Bool {
    input.counts.rejected > 0 || input.error != nil || signatureLine(input) != nil
      || unpricedLine(input) != nil
  }

  /// The summary's line on an App Store input's transactions without a price, when there are any.
  static func unpricedLine(_ input: InputReport) -> String? {
    guard let n = input.unpriced, n > 0 else { return nil }
    let them = n == 1 ? "1 transaction carries" : "\(n) transactions carry"
    return "Unpriced, \(input.path): \(them) no price (StoreKit testing or older transactions). They back "
      + "access; revenue and the tie-out's feed leave them out, and the stores' reports hold their money."
  }

  /// The summary's line on an App Store input's signatures, when there is something to say: signatures
  /// off, a test root trusted, or lines accepted without a verified signature.
  static func signatureLine(_ input: InputReport) -> String? {
    guard let mode = input.signatures else { return nil }
    let unverified = input.unverified ?? 0
    if mode.hasPrefix("off") {
      return
        "SIGNATURES NOT VERIFIED (appStore.signatures is off): \(input.path), \(unverified) lines accepted unverified."
    }
    var parts: [String] = []
    if mode.hasSuffix("+ test root") {
      parts.append("JWS lines verified against a TEST root as well as Apple's (appStore.testRootCertificate)")
    }
    if unverified > 0 { parts.append("\(unverified) decoded lines accepted unverified (no signature)") }
    return parts.isEmpty ? nil : "Signatures, \(input.path): " + parts.joined(separator: "; ") + "."
  }

  var findingsSection: SummarySection {
    let history = facts.history != nil
    var headers = ["kind", "reason", "count", "money at stake"]
    let reporting = facts.fx.map { "at stake (\($0.reportingCurrency.code))" }
    if let reporting { headers.append(reporting) }
    if history { headers += ["new", "still open", "resolved"] }
    let numbers = history ? [2, 3, 4, 5, 6] : [2, 3]
    let aligned = reporting == nil ? numbers : numbers.map { $0 > 3 ? $0 + 1 : $0 } + [4]
    var table = SummaryTable(headers: headers, rightAligned: Set(aligned))
    // The text part: the reason alone names its kind; with an FX table the converted money stands for
    // the per-currency list (kept in the HTML, findings.csv and the workbook), so a row fits 78 columns.
    let tail = Array((reporting == nil ? 4 : 5)..<headers.count)
    table.textColumns = [1, 2] + (reporting == nil ? [3] : [4]) + tail
    for g in groups {
      var stake = g.atStake.map(Grouped.money)
      if g.withoutAmount > 0 { stake.append("\(g.withoutAmount) without amount") }
      var row = [
        g.reason.kind.rawValue, g.reason.rawValue, Grouped.count(g.count), stake.joined(separator: ", "),
      ]
      if reporting != nil {
        row.append(g.atStakeReporting.map { Grouped.amount($0.minor, $0.currency) } ?? "")
      }
      if history { row += [g.new ?? 0, g.stillOpen ?? 0, g.resolved ?? 0].map(Grouped.count) }
      table.rows.append(row)
    }
    var blocks: [SummarySection.Block] = []
    if groups.isEmpty {
      blocks.append(.paragraph("No findings."))
    } else {
      blocks.append(.table(table))
      if let totals = ReportingTotals.build(facts) {
        blocks.append(.paragraph(Self.atStakeLine(totals, facts)))
      }
      let steps = groups.filter { $0.count > 0 }.compactMap { g in
        NextStep.of(g.reason).map { SummaryStep($0, docsBase: facts.docsBase) }
      }
      if !steps.isEmpty { blocks.append(.nextSteps(steps)) }
    }
    if let h = facts.history {
      let since =
        h.previousRunDate.map { "compared with the run for \($0)" }
        ?? "first recorded run: every finding is new"
      blocks.append(.paragraph("Run history: \(since)."))
      if h.backfill { blocks.append(.paragraph(Self.backfillLine)) }
      if let trend = FindingsTrend.build(totals: h.dayTotals, fx: facts.fx) {
        blocks.append(.paragraph(Self.findingsTrendLine(trend)))
        blocks.append(.picture(Self.findingsPicture(trend)))
        if trend.currency != nil { blocks.append(.picture(Self.atStakePicture(trend))) }
      }
    } else {
      blocks.append(.paragraph("Run history: not configured (new / still open / resolved need it)."))
    }
    return SummarySection(title: "Findings (\(Grouped.count(facts.findings.count)))", blocks: blocks)
  }

  /// What the summary says of a backfill (docs/history.md#backfill).
  static let backfillLine = "Backfill: run on today's app rows; left out of trends."

  /// The findings trend in one sentence: the first and the last run of the window, with the change.
  static func findingsTrendLine(_ trend: FindingsTrend) -> String {
    let (first, last) = (0, trend.days.count - 1)
    let (before, now) = (trend.total(first), trend.total(last))
    let change = now - before
    var line =
      "Over the last \(FindingsTrend.dayCount) days, \(trend.days.count) recorded runs: findings \(Grouped.count(before)) on \(trend.days[first]), "
      + "\(Grouped.count(now)) on \(trend.days[last]) (\(change > 0 ? "+" : change < 0 ? "-" : "±")\(Grouped.count(abs(change))))"
    if let currency = trend.currency {
      line +=
        "; money at stake \(Grouped.money(Money(minor: trend.atStakeMinor[first], currency: currency))) → "
        + "\(Grouped.money(Money(minor: trend.atStakeMinor[last], currency: currency))), "
        + "\(ReportingTotals.change(trend.atStakeMinor[last], trend.atStakeMinor[first], currency)), \(trend.note)"
    }
    if trend.unconverted > 0 {
      line += "; \(Grouped.count(trend.unconverted)) findings not converted are left out"
    }
    return line + "."
  }

  /// Findings per recorded run, one line per kind.
  static func findingsPicture(_ trend: FindingsTrend) -> String {
    let lines = zip(trend.kinds, trend.findings).map { kind, counts in
      SVGChart.Line(name: kind, values: counts.map(Double.init))
    }
    return SVGChart.lineChart(
      title: "Findings per recorded run and kind, last \(FindingsTrend.dayCount) days",
      xLabels: trend.days.map(\.description), lines: lines
    ) { Grouped.integer(Int64($0.rounded(.toNearestOrEven))) }
  }

  /// Money at stake per recorded run, in the trend's currency.
  static func atStakePicture(_ trend: FindingsTrend) -> String {
    guard let currency = trend.currency else { return "" }
    let scale = Double(Pow10.int64(currency.minorUnits ?? 0))
    let line = SVGChart.Line(name: "money at stake", values: trend.atStakeMinor.map { Double($0) / scale })
    return SVGChart.lineChart(
      title: "Money at stake per recorded run, last \(FindingsTrend.dayCount) days (\(trend.note))",
      xLabels: trend.days.map(\.description), lines: [line]
    ) { Grouped.integer(Int64($0.rounded(.toNearestOrEven))) + " " + currency.code }
  }

  var largestSection: SummarySection {
    let n = Self.rankingSize
    var title: String
    var notes: [String] = []
    if rankedNewOnly {
      title = "\(n) largest new findings"
    } else {
      title = "\(n) largest findings"
      notes.append("No run history: these are the largest of all findings, not only new ones.")
    }
    if let fx = facts.fx {
      notes.append("Ranked by money at stake converted into \(fx.reportingCurrency.code) (\(fx.label)).")
    } else {
      title += " per currency"
      notes.append(
        "Ranked by money at stake within each currency (no FX table: currencies are not compared).")
    }
    if unranked > 0 {
      notes.append(
        "\(unranked) findings without an amount\(facts.fx == nil ? "" : " or FX rate") are not ranked.")
    }
    var blocks: [SummarySection.Block] = notes.map { .paragraph($0) }
    if rankings.isEmpty {
      blocks.append(
        .paragraph(
          rankedNewOnly ? "No new findings with money at stake." : "No findings with money at stake."))
    }
    for ranking in rankings {
      var headers = ["#", "money at stake", "kind/reason", "store", "user", "product", "chain key"]
      if ranking.converted != nil { headers.insert("converted", at: 2) }
      var table = SummaryTable(
        headers: headers, rightAligned: ranking.converted != nil ? [0, 1, 2] : [0, 1])
      for (i, f) in ranking.findings.enumerated() {
        let amount =
          f.currency.flatMap { c in f.amountMinor.map { Grouped.money(Money(minor: $0, currency: c)) } }
          ?? "—"
        var row = [
          String(i + 1), amount, "\(f.kind.rawValue)/\(f.reason.rawValue)", f.store.rawValue, f.userId,
          f.productId, f.chainKey,
        ]
        if let converted = ranking.converted, i < converted.count {
          row.insert(Grouped.money(converted[i]), at: 2)
        }
        table.rows.append(row)
      }
      if facts.fx == nil { blocks.append(.subheading(ranking.title)) }
      blocks.append(.table(table))
    }
    return SummarySection(title: title, blocks: blocks)
  }

  var revenueSection: SummarySection {
    let date = facts.date
    let monthStart = CivilDate(year: date.year, month: date.month, day: 1)
    // Counts stand after the money, never beside the currency code ("2" must not read "2 BRL").
    var table = SummaryTable(
      headers: [
        "store", "currency", "gross \(date)", "tax", "refunds", "charges", "gross month to date", "refunds",
        "charges",
      ], rightAligned: [2, 3, 4, 5, 6, 7, 8])
    for line in revenue {
      let c = line.currency
      table.rows.append([
        line.store.rawValue, c.code, Grouped.amount(line.dayGrossMinor, c),
        Grouped.amount(line.dayTaxMinor, c),
        Grouped.amount(line.dayRefundsMinor, c), Grouped.count(line.dayCharges),
        Grouped.amount(line.monthGrossMinor, c), Grouped.amount(line.monthRefundsMinor, c),
        Grouped.count(line.monthCharges),
      ])
    }
    var blocks: [SummarySection.Block] = [
      .paragraph(
        "Production charges and refunds per store and currency on \(date) and from \(monthStart) through \(date) (\(facts.timeZone)); tax where the store states it. Per product and day: revenue.csv."
      )
    ]
    // The totals in the reporting currency first (they fit beside the chart), the per-currency table
    // folded under them, then the deferred revenue at T.
    if let totals = ReportingTotals.build(facts), !totals.lines.isEmpty {
      let previous = CivilDate(daysSinceEpoch: date.daysSinceEpoch - 1)
      blocks.append(
        .subheading(
          "In \(totals.currency.code) (\(totals.label)): \(date) against \(previous), and the month to date"))
      blocks.append(.table(Self.reportingTable(totals, date: date)))
      if totals.unconvertedRows > 0 {
        blocks.append(
          .paragraph(
            "\(Grouped.count(totals.unconvertedRows)) revenue rows of these days have no rate into \(totals.currency.code) and are left out of these totals."
          ))
      }
    }
    blocks.append(
      revenue.isEmpty
        ? .paragraph("No revenue in \(date.year)-\(date.month < 10 ? "0" : "")\(date.month) through \(date).")
        : .folded("Per store and currency (\(Grouped.count(revenue.count)) rows)", table))
    if let line = deferredLine { blocks.append(.paragraph(line)) }
    if let line = lastPayoutLine { blocks.append(.paragraph(line)) }
    if let trend = RevenueTrend.build(revenue: facts.revenue, date: date, fx: facts.fx) {
      blocks.append(.picture(Self.trendPicture(trend)))
    }
    return SummarySection(title: "Revenue", blocks: blocks)
  }

  /// The deferred revenue at T per currency, in one sentence (docs/reports.md#revenue_recognitioncsv).
  var deferredLine: String? {
    guard let deferred = facts.deferredAtT, !deferred.isEmpty else { return nil }
    return "Deferred revenue at T (revenue_recognition.csv): "
      + deferred.map { Grouped.money($0) }.joined(separator: "; ") + "."
  }

  /// Each store's last payout in one sentence (docs/reports.md#payoutscsv).
  var lastPayoutLine: String? {
    let payouts = PayoutTables.lastPayouts(facts.payoutLines)
    guard !payouts.isEmpty else { return nil }
    return "Last payout per store (payouts.csv): " + payouts.joined(separator: "; ") + "."
  }

  /// The findings' money at stake in the reporting currency, in one sentence.
  static func atStakeLine(_ totals: ReportingTotals, _ facts: SummaryFacts) -> String {
    let which = facts.history == nil ? "findings (no run history: all)" : "new findings"
    var line =
      "Money at stake in \(totals.currency.code) (\(totals.label)): \(Grouped.money(Money(minor: totals.atStakeMinor, currency: totals.currency))) over \(Grouped.count(totals.atStakeFindings)) \(which), each charge once"
    if totals.unconvertedFindings > 0 {
      line += "; \(Grouped.count(totals.unconvertedFindings)) without an amount or rate are not in it"
    }
    return line + "."
  }

  /// Gross and proceeds per store in the reporting currency: the report date, the day before, the
  /// change, and the month to date.
  static func reportingTable(_ totals: ReportingTotals, date: CivilDate) -> SummaryTable {
    let c = totals.currency
    // Short headers (the subheading names the two days): the table fits beside the revenue chart.
    var table = SummaryTable(
      headers: [
        "store", "gross", "day before", "change", "proceeds", "day before", "change", "month to date",
      ], rightAligned: [1, 2, 3, 4, 5, 6, 7])
    for line in totals.lines {
      table.rows.append([
        line.store?.rawValue ?? "all stores", Grouped.amount(line.grossMinor, c),
        Grouped.amount(line.previousGrossMinor, c),
        ReportingTotals.change(line.grossMinor, line.previousGrossMinor, c),
        Grouped.amount(line.proceedsMinor, c), Grouped.amount(line.previousProceedsMinor, c),
        ReportingTotals.change(line.proceedsMinor, line.previousProceedsMinor, c),
        Grouped.amount(line.monthGrossMinor, c),
      ])
    }
    return table
  }

  /// The revenue trend as a line chart, one line per store.
  static func trendPicture(_ trend: RevenueTrend) -> String {
    let currency = trend.currency
    let scale = Double(Pow10.int64(currency.minorUnits ?? 0))
    let lines = zip(trend.stores, trend.grossMinor).map { store, gross in
      SVGChart.Line(name: store.rawValue, values: gross.map { Double($0) / scale })
    }
    return SVGChart.lineChart(
      title: "Gross revenue per day and store, last \(trend.days.count) days (\(trend.note))",
      xLabels: trend.days.map(\.description), lines: lines
    ) { value in
      Grouped.integer(Int64(value.rounded(.toNearestOrEven))) + " " + currency.code
    }
  }

  /// An experiment's arms side by side: a row per figure (verdict, lift, P(best), …), a column per arm,
  /// so two or three arms fit a phone and a 78-column line; P(best) tinted green at 95 % or more, red
  /// at 5 % or less (the text says the same figure).
  static func readoutTable(_ e: ExperimentVerdict) -> SummaryTable {
    let names = e.arms.first?.figures.map(\.0) ?? []
    var table = SummaryTable(
      headers: ["figure"] + e.arms.map(\.id), rightAligned: Set(1...max(1, e.arms.count)))
    for (r, name) in names.enumerated() {
      table.rows.append([name] + e.arms.map { arm in arm.figures.first { $0.0 == name }?.1 ?? "—" })
      for (a, arm) in e.arms.enumerated() {
        guard let tint = arm.tints[name] else { continue }
        table.tints[[r, a + 1]] = tint == .good ? "#dafbe1" : "#ffebe9"
      }
    }
    return table
  }

  var experimentsSection: SummarySection {
    guard let experiments = facts.experiments else {
      return SummarySection(title: "Price tests", blocks: [.paragraph("Price tests: not configured.")])
    }
    guard !experiments.isEmpty else {
      return SummarySection(
        title: "Price tests", blocks: [.paragraph("No price test has a readout for this run.")])
    }
    var blocks: [SummarySection.Block] = []
    for e in experiments {
      blocks.append(.subheading(e.experimentId))
      blocks.append(.paragraph(e.verdict))
      for note in e.notes { blocks.append(.paragraph(note)) }
      if !e.arms.isEmpty { blocks.append(.table(Self.readoutTable(e))) }
      if !e.differences.isEmpty {
        blocks.append(
          .picture(
            SVGChart.forestPlot(
              title: "Revenue per assigned user vs control, 95 % bootstrap interval",
              rows: e.differences, valueLabel: e.differenceLabel)))
      }
    }
    return SummarySection(title: "Price tests", blocks: blocks)
  }
}
