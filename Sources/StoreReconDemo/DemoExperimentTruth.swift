import StoreReconCore

/// Tallies the price experiment's truth per arm as groups are generated (DemoWorld calls ``record(_:)``
/// for every group), using the demo's own notion of its chains, prices, taxes, fees and FX table.
///
/// The rules it follows are the readout's, stated on the generator's side: a user's chain is credited
/// when its first purchase (trial or charge) is at or after the user's assignment; every paid charge of
/// a credited chain counts (refunded ones too, for gross and conversions); proceeds are gross − tax −
/// fee (App Store 30 %, 15 % for a subscription charge a year or more after the chain's first paid
/// charge; Play 15 % subscriptions, 30 % one-time), half-even, and zero for a refunded charge.
struct DemoExperimentTruth {
  /// The arms, control first.
  private(set) var arms = [DemoArmTruth(armId: "control"), DemoArmTruth(armId: "high")]
  let t: Instant

  init(t: Instant) { self.t = t }

  /// Adds one group's assignments and the chains of its assigned users.
  mutating func record(_ group: DemoGroup) {
    for assignment in group.assignments where assignment.experimentId == DemoBuilder.experimentId {
      guard let a = arms.firstIndex(where: { $0.armId == assignment.armId }) else { continue }
      var arm = arms[a]
      arm.assigned += 1
      var paid = false
      var trial = false
      var trialPaid = false
      for chain in group.chains
      where chain.ownerId == assignment.userId && !chain.sandbox && !chain.familyShared {
        guard let first = chain.periods.first else { continue }
        if first.start < assignment.assignedAt {
          arm.chainsNotCredited += 1
          continue
        }
        let charges =
          chain.pending ? [] : chain.periods.filter { !$0.isTrial && $0.priceMinor > 0 && $0.start <= t }
        let code = chain.country.currency.code
        if first.isTrial {
          trial = true
          if !charges.isEmpty { trialPaid = true }
        }
        if !charges.isEmpty && !paid {
          paid = true
          arm.paidConversionsByCurrency[code, default: 0] += 1
        }
        if charges.count > 1 {
          arm.renewals += charges.count - 1
          arm.renewalsByCurrency[code, default: 0] += charges.count - 1
        }
        for charge in charges {
          let money = DemoExperimentTruth.money(charge, of: chain, t: t)
          arm.grossByCurrency[code, default: 0] += money.gross
          arm.proceedsByCurrency[code, default: 0] += money.proceeds
          arm.reportingGrossMinor +=
            DemoFX.toReporting(money.gross, chain.country.currency, at: charge.start) ?? 0
          arm.reportingProceedsMinor +=
            DemoFX.toReporting(money.proceeds, chain.country.currency, at: charge.start) ?? 0
        }
      }
      if paid { arm.paidConversions += 1 }
      if trial { arm.trials += 1 }
      if trialPaid { arm.trialConversions += 1 }
      arms[a] = arm
    }
  }

  /// Gross and proceeds of one paid period, as the demo wrote it to the store exports.
  static func money(_ p: DemoPeriod, of chain: DemoChain, t: Instant) -> (gross: Int64, proceeds: Int64) {
    let gross: Int64
    let tax: Int64
    let bp: Int64
    if chain.store == .play {
      let amounts = chain.country.playAmounts(p.product.tier)
      gross = amounts.charged
      tax = amounts.tax
      bp = p.product.isSubscription ? 1500 : 3000
    } else {
      gross = p.priceMinor
      tax = 0
      let firstPaid = chain.periods.first { !$0.isTrial && $0.priceMinor > 0 }?.start ?? p.start
      bp = p.product.isSubscription && DemoCalendar.addMonths(firstPaid, 12) <= p.start ? 1500 : 3000
    }
    let fee = RoundingRule.halfEven.scale(gross - tax, numerator: bp, denominator: 10_000)
    let proceeds = gross - tax - fee
    guard let revocation = p.revocation, p.isRevoked(at: t) else { return (gross, proceeds) }
    switch revocation.kind {
    case .familyRevoke:
      return (gross, proceeds)
    case .refundProrated(let milli):
      let returned = RoundingRule.halfEven.scale(gross, numerator: milli, denominator: 100_000)
      return (
        gross, proceeds - RoundingRule.halfEven.scale(proceeds, numerator: returned, denominator: gross)
      )
    default:
      return (gross, 0)
    }
  }

  /// `truth/experiment_truth.csv`: per arm a row in USD (`scope` reporting), then per arm and currency.
  func csv() -> String {
    var text =
      "experiment_id,arm_id,scope,currency,assigned,trials,trial_conversions,paid_conversions,renewals,"
      + "gross_minor,proceeds_minor,chains_not_credited\n"
    let id = DemoBuilder.experimentId
    for arm in arms {
      text +=
        "\(id),\(arm.armId),reporting,\(DemoFX.reporting),\(arm.assigned),\(arm.trials),\(arm.trialConversions),"
        + "\(arm.paidConversions),\(arm.renewals),\(arm.reportingGrossMinor),\(arm.reportingProceedsMinor),"
        + "\(arm.chainsNotCredited)\n"
    }
    for arm in arms {
      for code in arm.grossByCurrency.keys.sorted() {
        text +=
          "\(id),\(arm.armId),currency,\(code),\(arm.assigned),,,\(arm.paidConversionsByCurrency[code] ?? 0),"
          + "\(arm.renewalsByCurrency[code] ?? 0),\(arm.grossByCurrency[code] ?? 0),\(arm.proceedsByCurrency[code] ?? 0),\n"
      }
    }
    return text
  }
}
