import StoreReconPlatform

/// The crediting pass of the readout: every assigned user's lineages, their credited charges and money.
///
/// The pass splits by user: users in (arm, user number) order are cut into contiguous parts, and each
/// part credits the lineages of its own users, in lineage order, into its own tallies and lineage rows
/// and into its users' entries of the shared ``ArmTally/Person`` array (no two parts touch the same
/// user). Every total is a sum, a user's charges are credited in the same order whatever the parts,
/// and each part's rows come before the next part's in the report order, so the readout is the same
/// for any number of parts.
extension Readout {
  /// What every part of the crediting pass reads.
  struct CreditContext {
    let ledger: LedgerStorage
    let asOf: Instant
    let arms: [ExperimentArm]
    let assigned: AssignedUsers
    let users: ChainUsers
    /// Per lineage: its user's number, or -1.
    let owners: [Int32]
    /// Per user number: the user's place in (arm, number) order.
    let places: [Int32]
    let facts: VariantFacts
    /// Per arm: whether it offers product name `n` of store slot `s` (`s * nameCount + n`).
    let offers: [[Bool]]
    let nameCount: Int
    let settings: ExperimentSettings
    /// The first enrolment day, and the days of the curve (through the report day).
    let startDay: Int64
    let days: Int
  }

  /// What one part of the crediting pass produced.
  struct CreditPart {
    var tallies: [ArmTally]
    /// The part's lineage rows, in report order.
    let items: GrowableBuffer<LineageRows.Item>
    var gaps: [FXGap]
    /// Net proceeds of users in currencies beside their first one (``ArmTally/Person/mixed``).
    var otherNet: [Int32: [Currency: Int64]]
    /// What ``warm(_:_:_:)`` read.
    var checksum: UInt64 = 0
  }

  /// Credits `mine`, the lineages of the users whose places are in `places`, by their users' places
  /// (then in lineage order): a user's rows come out together, in credit order, and are sorted on their
  /// own.
  static func credit(
    _ c: CreditContext, _ s: LedgerView, places: Range<Int>, lineages mine: ArraySlice<Int32>,
    people: UnsafeMutableBufferPointer<ArmTally.Person>, dayOf: (Instant) -> CivilDate
  ) -> CreditPart {
    let t = c.asOf
    let arms = c.arms
    var part = CreditPart(
      tallies: Array(repeating: ArmTally(days: c.days), count: arms.count),
      items: GrowableBuffer<LineageRows.Item>(), gaps: [], otherNet: [:])
    var fx = FXDayCache(c.settings.fx)
    let fees = c.settings.fees
    let rounding = c.settings.rounding
    let reporting = c.settings.reportingCurrency
    var eligible: [Int] = []
    var charges: [CreditedCharge] = []
    let starts = c.users.starts
    let members = c.users.members
    var sink: UInt64 = 0
    var userStart = 0
    var previousOwner: Int32 = -1

    for j in mine.indices {
      let lineageIndex = mine[j]
      if (j - mine.startIndex) % warmBatch == 0 {
        sink &+= warm(mine[j..<min(j + warmBatch, mine.endIndex)], c, s, starts, members, people)
      }
      let k = Int(lineageIndex)
      let owner = c.owners[k]
      if owner != previousOwner {
        sortUserRows(part.items, from: userStart, pool: s.pool)
        userStart = part.items.count
        previousOwner = owner
      }
      let lineage = Int(starts[k])..<Int(starts[k + 1])
      let number = Int(owner)
      let a = Int(c.assigned.arms[number])
      eligible.removeAll(keepingCapacity: true)
      var original = PackedRecord.none
      for m in lineage {
        let i = Int(members[m])
        let chain = s.chains[i]
        guard chain.production && !chain.familyShared else { continue }
        eligible.append(i)
        if chain.originalPurchaseAt != PackedRecord.none {
          original =
            original == PackedRecord.none ? chain.originalPurchaseAt : min(original, chain.originalPurchaseAt)
        }
      }
      part.tallies[a].chainsExcluded += lineage.count - eligible.count
      guard let head = eligible.first, original != PackedRecord.none else { continue }
      if c.assigned.assignedAt[number] > original {
        part.tallies[a].chainsAssignedAfterPurchase += eligible.count
        continue
      }

      // Credited: every paid charge of every eligible chain of the lineage.
      charges.removeAll(keepingCapacity: true)
      for (n, i) in eligible.enumerated() {
        let chain = s.chains[i]
        let range = s.purchases(i)
        var product = chain.currentProduct
        if product == UInt32.max, let first = range.first {
          product = s.products.nameID(ofVariant: s.record(at: first).variant)
        }
        if product != UInt32.max {
          let slot = LedgerStorage.slot(chain.store) * c.nameCount + Int(product)
          if !c.offers[a][slot], arms.indices.contains(where: { $0 != a && c.offers[$0][slot] }) {
            part.tallies[a].chainsOfOtherArmsProducts += 1
          }
        }
        guard !chain.pending else { continue }
        var firstPaidAt = PackedRecord.none
        for q in range {
          let r = s.record(at: q)
          guard r.amount > 0, r.isProduction, !r.isFamilyShared else { continue }
          firstPaidAt = firstPaidAt == PackedRecord.none ? r.at : min(firstPaidAt, r.at)
        }
        guard firstPaidAt != PackedRecord.none else { continue }
        let anniversary = FeeSchedule.firstAnniversary(Instant(ms: firstPaidAt))
        for q in range {
          let r = s.record(at: q)
          guard r.amount > 0, r.isProduction, !r.isFamilyShared else { continue }
          charges.append(
            CreditedCharge(
              q, chain: i, position: n, ledger: s, firstAnniversary: anniversary,
              subscription: c.facts.subscription[Int(r.variant)], fees: fees, rounding: rounding,
              reporting: reporting, asOf: t.ms, day: dayOf(Instant(ms: r.at)), fx: &fx))
        }
      }
      if charges.count > 1 {
        charges.sort { x, y in
          if x.at != y.at { return x.at < y.at }
          if x.position != y.position { return x.position < y.position }
          return x.purchaseIndex < y.purchaseIndex
        }
      }

      let headChain = s.chains[head]
      let headPurchases = s.purchases(head)
      let headFirst = headPurchases.first.map { s.record(at: $0) }
      let trial = Readout.startedWithTrial(head, s)
      let headStatus = headChain.status >= 0 ? s.statuses[Int(headChain.status)] : nil
      let lineageCurrency: Currency? =
        charges.first?.currency ?? headFirst.flatMap { $0.currencyValue } ?? headStatus?.currencyValue
      var person = people[number]
      if trial {
        person.trial = true
        if !charges.isEmpty { person.trialConverted = true }
        if person.trialCurrency == 0, let currency = lineageCurrency {
          person.trialCurrency = UInt16(currency.tableIndex + 1)
        }
      }

      // Maturity: a subscription purchase (paid, or at least a trial) whose first billing period has elapsed.
      let typedVariant = charges.first.map { s.records[Int($0.record)].variant } ?? headFirst?.variant
      let subscription = typedVariant.map { c.facts.subscription[Int($0)] } ?? true
      if subscription && (!charges.isEmpty || trial) {
        let mature: Bool
        if let first = charges.first {
          let variant = s.records[Int(first.record)].variant
          mature = c.facts.period[Int(variant)].advance(Instant(ms: first.at)) <= t
        } else {
          var latest = PackedRecord.none
          for i in eligible where s.chains[i].paidThrough != PackedRecord.none {
            latest =
              latest == PackedRecord.none ? s.chains[i].paidThrough : max(latest, s.chains[i].paidThrough)
          }
          mature = (latest == PackedRecord.none ? original : latest) <= t.ms
        }
        part.tallies[a].reporting.subscriptionLineages += 1
        if mature { part.tallies[a].reporting.matureLineages += 1 }
        if let currency = lineageCurrency {
          part.tallies[a].totals(currency) {
            $0.subscriptionLineages += 1
            if mature { $0.matureLineages += 1 }
          }
        }
      }

      if part.tallies[a].renewalsByNumber.count < charges.count {
        part.tallies[a].renewalsByNumber +=
          Array(repeating: 0, count: charges.count - part.tallies[a].renewalsByNumber.count)
      }
      for (k, charge) in charges.enumerated() {
        let chain = s.chains[Int(charge.chain)]
        part.tallies[a].totals(charge.currency) { totals in
          totals.grossMinor += charge.grossMinor
          totals.proceedsMinor += charge.netProceedsMinor
          if charge.refunded {
            totals.refunds += 1
            totals.refundsMinor += charge.refundedMinor
          }
          if k > 0 { totals.renewals += 1 }
        }
        if charge.refunded { part.tallies[a].reporting.refunds += 1 }
        if k > 0 { part.tallies[a].reporting.renewals += 1 }
        let transaction = s.records[Int(charge.record)].transactionId
        if let gross = charge.reportingGross, let refunded = charge.reportingRefunded,
          let net = charge.reportingNet
        {
          part.tallies[a].reporting.grossMinor += gross
          part.tallies[a].reporting.refundsMinor += refunded
          part.tallies[a].reporting.proceedsMinor += net
          person.reportingNet += net
          let index = Int(charge.day.daysSinceEpoch - c.startDay)
          if index >= 0 && index < c.days { part.tallies[a].proceedsByDayIndex[index] += net }
        } else {
          part.gaps.append(
            FXGap(
              currency: charge.currency, day: charge.day, store: chain.store,
              chainKey: chain.key.string(pool: s.pool), transactionId: transaction.string(pool: s.pool)))
        }
        let code = UInt16(charge.currency.tableIndex + 1)
        if person.netCurrency == 0 || person.netCurrency == code {
          person.netCurrency = code
          person.net += charge.netProceedsMinor
        } else {
          person.mixed = true
          part.otherNet[owner, default: [:]][charge.currency, default: 0] += charge.netProceedsMinor
        }
        if person.firstPaidAt == PackedRecord.none || charge.at < person.firstPaidAt {
          person.firstPaidAt = charge.at
          person.firstPaidCurrency = code
        }
        part.tallies[a].renewalsByNumber[k] += 1
        part.items.append(
          LineageRows.Item(
            chain: chain.key, transaction: transaction, user: UInt32(owner), charged: charge.at,
            gross: charge.grossMinor, proceeds: charge.netProceedsMinor,
            reporting: charge.reportingNet ?? Int64.min,
            renewal: UInt32(k), currency: UInt16(charge.currency.tableIndex),
            arm: UInt8(truncatingIfNeeded: a),
            store: UInt8(LedgerStorage.slot(chain.store))))
      }
      person.credited = true
      people[number] = person
    }
    sortUserRows(part.items, from: userStart, pool: s.pool)
    part.checksum = sink
    return part
  }

  /// Lineages warmed up at a time.
  static let warmBatch = 16

  /// Reads what crediting `batch` (lineage numbers) will read — the users' entries, the chains, where
  /// their records are, their Play resources, then the records — level by level, so that the cache
  /// misses of a level are independent loads the processor overlaps, instead of one miss after another
  /// while crediting. Returns a sum of what it read (kept, so the loads are not optimised away).
  static func warm(
    _ batch: ArraySlice<Int32>, _ c: CreditContext, _ s: LedgerView, _ starts: [Int32], _ members: [Int32],
    _ people: UnsafeMutableBufferPointer<ArmTally.Person>
  ) -> UInt64 {
    var sum: UInt64 = 0
    // Each level reads the first and the last field of what it touches: records and rows cross cache lines.
    for k in batch {
      let owner = Int(c.owners[Int(k)])
      sum &+= UInt64(bitPattern: people[owner].firstPaidAt) &+ UInt64(people[owner].netCurrency)
      sum &+= UInt64(bitPattern: c.assigned.assignedAt[owner])
      for m in Int(starts[Int(k)])..<Int(starts[Int(k) + 1]) {
        let chain = s.chains[Int(members[m])]
        sum &+= UInt64(chain.startOffset) &+ UInt64(bitPattern: chain.originalPurchaseAt)
      }
    }
    for k in batch {
      for m in Int(starts[Int(k)])..<Int(starts[Int(k) + 1]) {
        let chain = s.chains[Int(members[m])]
        if chain.purchaseCount > 0 { sum &+= UInt64(s.order[chain.start]) }
        if chain.status >= 0 {
          let status = s.statuses[Int(chain.status)]
          sum &+= UInt64(bitPattern: status.at) &+ UInt64(status.currency)
        }
      }
    }
    for k in batch {
      for m in Int(starts[Int(k)])..<Int(starts[Int(k) + 1]) {
        let chain = s.chains[Int(members[m])]
        let records = Int(chain.purchaseCount) + Int(chain.refundCount) + Int(chain.voidCount)
        for q in chain.start..<chain.start + records {
          let r = s.record(at: q)
          sum &+= UInt64(bitPattern: r.at) &+ UInt64(r.flags.rawValue)
        }
      }
    }
    return sum
  }

  /// Puts one user's lineage rows (`from` to the end of `items`, in credit order) in report order, in
  /// place: by charge instant, store, chain key, transaction id, and credit order where all of those
  /// tie (a stable sort).
  static func sortUserRows(_ items: GrowableBuffer<LineageRows.Item>, from: Int, pool: TextPool) {
    let rows = UnsafeMutableBufferPointer(rebasing: items.buffer[from...])
    guard rows.count > 1 else { return }
    func less(_ x: LineageRows.Item, _ y: LineageRows.Item) -> Bool {
      if x.charged != y.charged { return x.charged < y.charged }
      if x.store != y.store { return LineageRows.store(x.store) < LineageRows.store(y.store) }
      let c = PackedID.compare(x.chain, y.chain, pool: pool)
      if c != 0 { return c < 0 }
      return PackedID.compare(x.transaction, y.transaction, pool: pool) < 0
    }
    if rows.count <= 32 {
      // Insertion sort: stable, and fast for the few rows of one user.
      for i in 1..<rows.count {
        let row = rows[i]
        var j = i
        while j > 0 && less(row, rows[j - 1]) {
          rows[j] = rows[j - 1]
          j -= 1
        }
        rows[j] = row
      }
      return
    }
    var order = Array(0..<rows.count)
    order.sort { a, b in
      if less(rows[a], rows[b]) { return true }
      if less(rows[b], rows[a]) { return false }
      return a < b
    }
    let sorted = order.map { rows[$0] }
    for (i, row) in sorted.enumerated() { rows[i] = row }
  }
}
