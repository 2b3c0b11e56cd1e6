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
    let items: GrowableBuffer<CreditedCharges.Packed>
    var gaps: [FXGap]
    /// Net proceeds of users in currencies beside their first one (``ArmTally/Person/mixed``).
    var otherNet: [Int32: [Currency: Int64]]
    /// What ``warm(_:_:_:_:)`` read.
    var checksum: UInt64 = 0
  }

  /// What crediting one lineage works with, kept across a part's lineages: the FX conversions looked
  /// up so far, and the lineage's eligible chains and credited charges (their memory reused).
  struct CreditScratch {
    var fx: FXDayCache
    /// The lineage's eligible chains (ledger indexes), root first.
    var eligible: [Int] = []
    /// The lineage's credited charges, in credit order.
    var charges: [ChargeMoney] = []

    init(_ settings: ExperimentSettings) { fx = FXDayCache(settings.fx) }
  }

  /// Credits `mine`, the lineages of the users whose places are in `places`, by their users' places
  /// (then in lineage order): a user's rows come out together, in credit order, and are sorted on their
  /// own. The lineages are read ahead in batches of ``warmBatch``.
  static func credit(
    _ c: CreditContext, _ s: borrowing LedgerView, places: Range<Int>, lineages mine: ArraySlice<Int32>,
    people: PartSlots<ArmTally.Person>, dayOf: (Instant) -> CivilDate
  ) -> CreditPart {
    var part = CreditPart(
      tallies: Array(repeating: ArmTally(days: c.days), count: c.arms.count),
      items: GrowableBuffer<CreditedCharges.Packed>(), gaps: [], otherNet: [:])
    var scratch = CreditScratch(c.settings)
    var sink: UInt64 = 0
    var userStart = 0
    var previousOwner: Int32 = -1
    for j in mine.indices {
      if (j - mine.startIndex) % warmBatch == 0 {
        sink &+= warm(mine[j..<min(j + warmBatch, mine.endIndex)], c, s, people)
      }
      let k = Int(mine[j])
      let owner = c.owners[k]
      if owner != previousOwner {
        // The part touches only its own users (see the extension's notes).
        precondition(places.contains(Int(c.places[Int(owner)])), "Readout.credit: another part's user")
        sortUserRows(part.items, from: userStart, pool: s.pool)
        userStart = part.items.count
        previousOwner = owner
      }
      var person = people[Int(owner)]
      creditLineage(k, of: owner, c, s, person: &person, scratch: &scratch, part: &part, dayOf: dayOf)
      people[Int(owner)] = person
    }
    sortUserRows(part.items, from: userStart, pool: s.pool)
    part.checksum = sink
    return part
  }

  /// Credits lineage `k` to its user `owner` (number; `person` is the user's entry): when the user was
  /// assigned before the lineage's first purchase, every paid charge of its eligible chains, with the
  /// trial, maturity and money they make; otherwise the chains are counted as assigned after purchase.
  /// Sandbox and Family Sharing chains are excluded.
  @inline(always)
  static func creditLineage(
    _ k: Int, of owner: Int32, _ c: CreditContext, _ s: borrowing LedgerView, person: inout ArmTally.Person,
    scratch: inout CreditScratch, part: inout CreditPart, dayOf: (Instant) -> CivilDate
  ) {
    let number = Int(owner)
    let a = Int(c.assigned.arms[number])
    let lineage = Int(c.users.starts[k])..<Int(c.users.starts[k + 1])
    let original = eligibleChains(lineage, c.users.members, s, into: &scratch.eligible)
    part.tallies[a].chainsExcluded += lineage.count - scratch.eligible.count
    guard let head = scratch.eligible.first, original != PackedRecord.none else { return }
    if c.assigned.assignedAt[number] > original {
      part.tallies[a].chainsAssignedAfterPurchase += scratch.eligible.count
      return
    }

    // Credited: every paid charge of every eligible chain of the lineage.
    creditedCharges(arm: a, c, s, scratch: &scratch, tally: &part.tallies[a], dayOf: dayOf)
    let headFirst = s.purchases(head).first.map { s.record(at: $0) }
    let trial = Readout.startedWithTrial(head, s)
    let lineageCurrency: Currency? =
      scratch.charges.first?.currency ?? headFirst.flatMap { $0.currencyValue }
      ?? s.status(ofChain: head)?.currencyValue
    if trial {
      person.trial = true
      if !scratch.charges.isEmpty { person.trialConverted = true }
      if person.trialCurrency == 0, let currency = lineageCurrency {
        person.trialCurrency = UInt16(currency.tableIndex + 1)
      }
    }
    let maturesAt = maturity(
      scratch.charges, trial: trial, headFirst: headFirst, eligible: scratch.eligible, original: original,
      c, s)
    if let maturesAt {
      let mature = maturesAt <= c.asOf.ms
      part.tallies[a].reporting.subscriptionLineages += 1
      if mature {
        part.tallies[a].reporting.matureLineages += 1
      } else {
        part.tallies[a].immatureUntil.append(maturesAt)
      }
      if let currency = lineageCurrency {
        part.tallies[a].totals(currency) {
          $0.subscriptionLineages += 1
          if mature { $0.matureLineages += 1 }
        }
      }
    }
    addCharges(scratch.charges, of: owner, arm: a, c, s, person: &person, part: &part)
    person.credited = true
  }

  /// Puts lineage `lineage`'s chains (positions in `members`) that can be credited into `eligible`:
  /// production chains not shared through Family Sharing. Returns the earliest original purchase of
  /// those chains (``PackedRecord/none`` when none states one).
  @inline(always)
  static func eligibleChains(
    _ lineage: Range<Int>, _ members: [Int32], _ s: borrowing LedgerView, into eligible: inout [Int]
  ) -> Int64 {
    eligible.removeAll(keepingCapacity: true)
    var original = PackedRecord.none
    for m in lineage {
      let i = Int(members[m])
      let chain = s.chain(i)
      guard chain.production && !chain.familyShared else { continue }
      eligible.append(i)
      if chain.originalPurchaseAt != PackedRecord.none {
        original =
          original == PackedRecord.none ? chain.originalPurchaseAt : min(original, chain.originalPurchaseAt)
      }
    }
    return original
  }

  /// Puts the credited charges of the eligible chains into `scratch.charges`, in credit order (charge
  /// instant, then the chain's place in the lineage, then its purchase order): every paid production
  /// charge of a chain that is not pending. Counts the chains whose product only another arm offers.
  @inline(always)
  static func creditedCharges(
    arm a: Int, _ c: CreditContext, _ s: borrowing LedgerView, scratch: inout CreditScratch,
    tally: inout ArmTally, dayOf: (Instant) -> CivilDate
  ) {
    scratch.charges.removeAll(keepingCapacity: true)
    for (n, i) in scratch.eligible.enumerated() {
      if isOtherArmsProduct(i, arm: a, c, s) { tally.chainsOfOtherArmsProducts += 1 }
      guard !s.chain(i).pending else { continue }
      appendCharges(ofChain: i, position: n, c, s, fx: &scratch.fx, to: &scratch.charges, dayOf: dayOf)
    }
    if scratch.charges.count > 1 {
      scratch.charges.sort { x, y in
        if x.at != y.at { return x.at < y.at }
        if x.position != y.position { return x.position < y.position }
        return x.purchaseIndex < y.purchaseIndex
      }
    }
  }

  /// Whether chain `i`'s product (its current one, else its first purchase's) is one arm `a` does not
  /// offer and another arm does.
  @inline(always)
  static func isOtherArmsProduct(
    _ i: Int, arm a: Int, _ c: CreditContext, _ s: borrowing LedgerView
  ) -> Bool {
    let chain = s.chain(i)
    var product = chain.currentProduct
    if product == UInt32.max, let first = s.purchases(i).first {
      product = s.products.nameID(ofVariant: s.record(at: first).variant)
    }
    guard product != UInt32.max else { return false }
    let slot = LedgerStorage.slot(chain.store) * c.nameCount + Int(product)
    return !c.offers[a][slot] && c.arms.indices.contains(where: { $0 != a && c.offers[$0][slot] })
  }

  /// Appends chain `i`'s paid production charges (not Family Sharing ones) with their money worked out;
  /// `position` is the chain's place in the lineage. Fees count from the chain's first paid charge.
  @inline(always)
  static func appendCharges(
    ofChain i: Int, position n: Int, _ c: CreditContext, _ s: borrowing LedgerView, fx: inout FXDayCache,
    to charges: inout [ChargeMoney], dayOf: (Instant) -> CivilDate
  ) {
    let range = s.purchases(i)
    var firstPaidAt = PackedRecord.none
    for q in range {
      let r = s.record(at: q)
      guard r.amount > 0, r.isProduction, !r.isFamilyShared else { continue }
      firstPaidAt = firstPaidAt == PackedRecord.none ? r.at : min(firstPaidAt, r.at)
    }
    guard firstPaidAt != PackedRecord.none else { return }
    let anniversary = FeeSchedule.firstAnniversary(Instant(ms: firstPaidAt))
    for q in range {
      let r = s.record(at: q)
      guard r.amount > 0, r.isProduction, !r.isFamilyShared else { continue }
      charges.append(
        ChargeMoney(
          q, chain: i, position: n, ledger: s, firstAnniversary: anniversary,
          subscription: c.facts.subscription[Int(r.variant)], fees: c.settings.fees,
          rounding: c.settings.rounding, reporting: c.settings.reportingCurrency, asOf: c.asOf.ms,
          day: dayOf(Instant(ms: r.at)), fx: &fx, settledProceeds: c.settings.settled))
    }
  }

  /// Maturity of a credited lineage: `nil` unless it is a subscription purchase (paid, or at least a
  /// trial); else the instant (ms) it is mature — mature by T when that is at or before T: the end of
  /// its first billing period from its first charge (a commitment plan's payment: the end of its month,
  /// an App Store payment's `expiresDate`, a Play installment one month on); without a charge, its latest
  /// paid-through, else its original purchase.
  @inline(always)
  static func maturity(
    _ charges: [ChargeMoney], trial: Bool, headFirst: PackedRecord?, eligible: [Int], original: Int64,
    _ c: CreditContext, _ s: borrowing LedgerView
  ) -> Int64? {
    let typedVariant = charges.first.map { s.record(number: Int($0.record)).variant } ?? headFirst?.variant
    let subscription = typedVariant.map { c.facts.subscription[Int($0)] } ?? true
    guard subscription && (!charges.isEmpty || trial) else { return nil }
    if let first = charges.first {
      let n = Int(first.record)
      let record = s.record(number: n)
      if s.storage.rareFields(n)?.commitment != nil {
        // A payment of a commitment plan buys its own month, whatever the product's (yearly) period
        // (docs/rules.md#commitment-plans): the chain has had its chance to pay again a month on.
        return record.expires != PackedRecord.none
          ? record.expires : BillingPeriod.oneMonth.advance(Instant(ms: first.at)).ms
      }
      if s.chain(Int(first.chain)).store == .play && s.chain(Int(first.chain)).onCommitment {
        // A Play installments plan (its resource states `installmentDetails`): each payment is one
        // monthly installment, whatever period the catalog gives the base plan (docs/rules.md#commitment-plans).
        return BillingPeriod.oneMonth.advance(Instant(ms: first.at)).ms
      }
      return c.facts.period[Int(record.variant)].advance(Instant(ms: first.at)).ms
    }
    var latest = PackedRecord.none
    for i in eligible where s.chain(i).paidThrough != PackedRecord.none {
      latest = latest == PackedRecord.none ? s.chain(i).paidThrough : max(latest, s.chain(i).paidThrough)
    }
    return latest == PackedRecord.none ? original : latest
  }

  /// Adds a credited lineage's charges (in credit order: the first is the purchase, the others
  /// renewals) to arm `a`'s totals, its reporting curve and the user `owner`'s net, and makes their
  /// lineage rows; a charge without an FX rate is an FX gap.
  @inline(always)
  static func addCharges(
    _ charges: [ChargeMoney], of owner: Int32, arm a: Int, _ c: CreditContext, _ s: borrowing LedgerView,
    person: inout ArmTally.Person, part: inout CreditPart
  ) {
    if part.tallies[a].renewalsByNumber.count < charges.count {
      part.tallies[a].renewalsByNumber +=
        Array(repeating: 0, count: charges.count - part.tallies[a].renewalsByNumber.count)
    }
    for (k, charge) in charges.enumerated() {
      let chain = s.chain(Int(charge.chain))
      part.tallies[a].totals(charge.currency) { totals in
        totals.grossMinor += charge.grossMinor
        totals.proceedsMinor += charge.netProceedsMinor
        totals.charges += 1
        if charge.settled { totals.settledCharges += 1 }
        if charge.refunded {
          totals.refunds += 1
          totals.refundsMinor += charge.refundedMinor
        }
        if k > 0 { totals.renewals += 1 }
      }
      if charge.refunded { part.tallies[a].reporting.refunds += 1 }
      part.tallies[a].reporting.charges += 1
      if charge.settled { part.tallies[a].reporting.settledCharges += 1 }
      if k > 0 { part.tallies[a].reporting.renewals += 1 }
      let transaction = s.record(number: Int(charge.record)).transactionId
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
        CreditedCharges.Packed(
          chain: chain.key, transaction: transaction, user: UInt32(owner), charged: charge.at,
          gross: charge.grossMinor, proceeds: charge.netProceedsMinor,
          reporting: charge.reportingNet ?? Int64.min,
          renewal: UInt32(k), currency: UInt16(charge.currency.tableIndex),
          arm: UInt8(truncatingIfNeeded: a),
          store: UInt8(LedgerStorage.slot(chain.store))))
    }
  }

  /// Lineages warmed up at a time.
  static let warmBatch = 16

  /// Reads what crediting `batch` (lineage numbers) will read — the users' entries, the chains, where
  /// their records are, their Play resources, then the records — level by level, so that the cache
  /// misses of a level are independent loads the processor overlaps, instead of one miss after another
  /// while crediting. Returns a sum of what it read (kept, so the loads are not optimised away).
  static func warm(
    _ batch: ArraySlice<Int32>, _ c: CreditContext, _ s: borrowing LedgerView,
    _ people: PartSlots<ArmTally.Person>
  ) -> UInt64 {
    let starts = c.users.starts
    let members = c.users.members
    var sum: UInt64 = 0
    // Each level reads the first and the last field of what it touches: records and rows cross cache lines.
    for k in batch {
      let owner = Int(c.owners[Int(k)])
      sum &+= UInt64(bitPattern: people[owner].firstPaidAt) &+ UInt64(people[owner].netCurrency)
      sum &+= UInt64(bitPattern: c.assigned.assignedAt[owner])
      for m in Int(starts[Int(k)])..<Int(starts[Int(k) + 1]) {
        let chain = s.chain(Int(members[m]))
        sum &+= UInt64(chain.startOffset) &+ UInt64(bitPattern: chain.originalPurchaseAt)
      }
    }
    for k in batch {
      for m in Int(starts[Int(k)])..<Int(starts[Int(k) + 1]) {
        let chain = s.chain(Int(members[m]))
        if chain.purchaseCount > 0 { sum &+= UInt64(s.recordNumber(at: chain.start)) }
        if chain.status >= 0 {
          let status = s.status(Int(chain.status))
          sum &+= UInt64(bitPattern: status.at) &+ UInt64(status.currency)
        }
      }
    }
    for k in batch {
      for m in Int(starts[Int(k)])..<Int(starts[Int(k) + 1]) {
        let chain = s.chain(Int(members[m]))
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
  static func sortUserRows(_ items: GrowableBuffer<CreditedCharges.Packed>, from: Int, pool: TextPool) {
    CreditedCharges.sortTail(items, from: from) { x, y in
      if x.charged != y.charged { return x.charged < y.charged }
      if x.store != y.store { return CreditedCharges.store(x.store) < CreditedCharges.store(y.store) }
      let c = PackedID.compare(x.chain, y.chain, pool: pool)
      if c != 0 { return c < 0 }
      return PackedID.compare(x.transaction, y.transaction, pool: pool) < 0
    }
  }
}
