package import StoreReconCore

/// Why N partials do not add up to one run.
package struct PartialMergeError: Error, Sendable, Equatable, CustomStringConvertible {
  package var message: String

  /// An error saying `message`.
  package init(_ message: String) { self.message = message }

  package var description: String { message }
}

extension RunPartial {
  /// Adds up the partials of partitions 0 … N−1 of one run (each exactly once, any order) into what
  /// the unpartitioned run computes: findings in report order, sums added (an overflow is an error,
  /// never a wrap), the tie-out's feed sides added cell by cell.
  package static func merged(_ parts: [RunPartial]) throws(PartialMergeError) -> RunPartial {
    guard let first = parts.first else { throw PartialMergeError("no partials to merge") }
    let n = first.partition.count
    var seen = [Bool](repeating: false, count: n)
    for p in parts {
      guard p.partition.count == n else {
        throw PartialMergeError("partials of different runs: partition \(first.partition) and \(p.partition)")
      }
      guard p.date == first.date else {
        throw PartialMergeError("partials of different report dates: \(first.date) and \(p.date)")
      }
      guard !seen[p.partition.index] else {
        throw PartialMergeError("partition \(p.partition) is given twice")
      }
      seen[p.partition.index] = true
      guard p.inputs == first.inputs else {
        throw PartialMergeError(
          "partition \(p.partition) read other inputs or another config than partition \(first.partition)")
      }
      guard p.keymap == first.keymap else {
        throw PartialMergeError(
          "partition \(p.partition) was cut by another keymap than partition \(first.partition)")
      }
    }
    if let missing = seen.firstIndex(of: false) {
      throw PartialMergeError("partition \(missing)/\(n) is missing: a merge needs all \(n) partials")
    }
    let ordered = parts.sorted { $0.partition.index < $1.partition.index }
    guard let whole = PartitionSpec(index: 0, count: 1) else { throw PartialMergeError("no partition 0/1") }
    var out = RunPartial(partition: whole, date: first.date)
    out.inputs = first.inputs
    out.keymap = first.keymap
    out.findings = Finding.sortedInReportOrder(ordered.flatMap(\.findings))
    for p in ordered { out.notificationFields.merge(p.notificationFields) { a, _ in a } }
    out.revenue = try mergedRevenue(ordered.flatMap(\.revenue))
    out.recognition = try mergedRecognition(ordered)
    out.charges = ordered.flatMap(\.charges).sorted(by: ChargeLine.reportOrder)
    out.counts = try mergedCounts(ordered.flatMap(\.counts))
    if ordered.contains(where: { $0.playUnits != nil }) {
      var units: [String: Int64] = [:]
      for p in ordered {
        for (product, n) in p.playUnits ?? [:] {
          units[product] = try sum(units[product] ?? 0, n, "Play units of \(product)")
        }
      }
      out.playUnits = units
    }
    out.tieOut = try mergedTieOut(ordered.map(\.tieOut))
    out.duplicates = ordered.flatMap(\.duplicates).sorted(by: RunPartial.duplicateOrder)
    out.grants = GrantRow.reportOrder(ordered.flatMap(\.grants))
    for p in ordered {
      for (store, k) in p.unchecked {
        out.unchecked[store] = Int(
          try sum(Int64(out.unchecked[store] ?? 0), Int64(k), "unchecked entitlements"))
      }
    }
    out.readouts = ordered.flatMap(\.readouts)
    out.engineInputs = try mergedEngineInputs(ordered)
    return out
  }

  /// The order duplicates.csv lists records read twice in: by the dropped copy's input and line, then
  /// the kept copy's, then kind, store, record and id (the same for one run and a partitioned one).
  package static func duplicateOrder(_ a: RecordDuplicate, _ b: RecordDuplicate) -> Bool {
    if (a.droppedInput, a.droppedLine, a.keptInput, a.keptLine) != (
      b.droppedInput, b.droppedLine, b.keptInput, b.keptLine
    ) {
      return (a.droppedInput, a.droppedLine, a.keptInput, a.keptLine) < (
        b.droppedInput, b.droppedLine, b.keptInput, b.keptLine
      )
    }
    return (a.kind.rawValue, a.store.rawValue, a.record, a.id) < (
      b.kind.rawValue, b.store.rawValue, b.record, b.id
    )
  }

  /// The engine-keyed inputs' shares added up; every partial must name the same inputs.
  static func mergedEngineInputs(_ ordered: [RunPartial]) throws(PartialMergeError) -> [Int: EngineInput] {
    guard let first = ordered.first else { return [:] }
    var out = first.engineInputs
    for p in ordered.dropFirst() {
      guard Set(p.engineInputs.keys) == Set(first.engineInputs.keys) else {
        throw PartialMergeError(
          "partition \(p.partition) and partition \(first.partition) were not made alike "
            + "(one by storerecon worker, one by run --partition, or from different plans)")
      }
      for (index, share) in p.engineInputs {
        guard let sum = out[index]?.adding(share) else {
          throw PartialMergeError("the row counts of input \(index) overflow a 64-bit sum")
        }
        out[index] = sum
      }
    }
    return out
  }

  static func sum(_ a: Int64, _ b: Int64, _ what: @autoclosure () -> String) throws(PartialMergeError)
    -> Int64
  {
    let (s, overflow) = a.addingReportingOverflow(b)
    guard !overflow else { throw PartialMergeError("\(what()) overflows a 64-bit sum (\(a) + \(b))") }
    return s
  }

  static func mergedRevenue(_ rows: [RevenueRow]) throws(PartialMergeError) -> [RevenueRow] {
    struct Key: Hashable {
      var day: CivilDate
      var store: Store
      var product: String
      var currency: Currency
    }
    var table: [Key: RevenueRow] = [:]
    for r in rows {
      let key = Key(day: r.day, store: r.store, product: r.productId, currency: r.currency)
      guard var m = table[key] else {
        table[key] = r
        continue
      }
      let what = "revenue of \(r.day) \(r.store.rawValue) \(r.productId) \(r.currency.code)"
      m.charges = Int(try sum(Int64(m.charges), Int64(r.charges), what))
      m.grossMinor = try sum(m.grossMinor, r.grossMinor, what)
      m.taxMinor = try sum(m.taxMinor, r.taxMinor, what)
      m.refundsMinor = try sum(m.refundsMinor, r.refundsMinor, what)
      m.refundCount = Int(try sum(Int64(m.refundCount), Int64(r.refundCount), what))
      m.proceedsMinor = try sum(m.proceedsMinor, r.proceedsMinor, what)
      m.proceedsSource = max(m.proceedsSource, r.proceedsSource)
      m.disputedMinor = try sum(m.disputedMinor, r.disputedMinor, what)
      m.disputeFeesMinor = try sum(m.disputeFeesMinor, r.disputeFeesMinor, what)
      table[key] = m
    }
    return table.values.sorted { a, b in
      if a.day != b.day { return a.day < b.day }
      if a.store != b.store { return a.store < b.store }
      if a.productId != b.productId { return a.productId < b.productId }
      return a.currency < b.currency
    }
  }

  static func mergedCounts(_ rows: [CountsRow]) throws(PartialMergeError) -> [CountsRow] {
    var table: [String: CountsRow] = [:]
    for r in rows {
      let key = r.store.rawValue + "|" + r.productId
      guard var m = table[key] else {
        table[key] = r
        continue
      }
      let what = "counts of \(r.store.rawValue) \(r.productId)"
      m.chainsPaidThrough = Int(try sum(Int64(m.chainsPaidThrough), Int64(r.chainsPaidThrough), what))
      m.entitlementsActive = Int(try sum(Int64(m.entitlementsActive), Int64(r.entitlementsActive), what))
      table[key] = m
    }
    return table.values.sorted { ($0.store, $0.productId) < ($1.store, $1.productId) }
  }

  static func mergedTieOut(_ parts: [TieOutFeedRows]) throws(PartialMergeError) -> TieOutFeedRows {
    var table: [String: TieOutFeedRows.Cell] = [:]
    for part in parts {
      for c in part.cells {
        let key = [c.source.rawValue, c.day.description, c.productId, c.country, c.currency.code].joined(
          separator: "\t")
        guard var m = table[key] else {
          table[key] = c
          continue
        }
        let what = "tie-out cell \(c.source.rawValue) \(c.day) \(c.productId) \(c.country) \(c.currency.code)"
        m.units = try sum(m.units, c.units, what)
        m.grossMinor = try sum(m.grossMinor, c.grossMinor, what)
        m.proceedsMinor = try sum(m.proceedsMinor, c.proceedsMinor, what)
        m.freeUnits = try sum(m.freeUnits, c.freeUnits, what)
        m.ids.merge(c.ids)
        table[key] = m
      }
    }
    var out = TieOutFeedRows()
    out.cells = table.values.sorted { TieOutFeedRows.Cell.precedes($0, $1) }
    out.orders = parts.flatMap(\.orders)
    out.stripe = parts.flatMap(\.stripe)
    return out
  }
}
