import StoreReconPlatform

/// A case as this run sees it, before the history and the decisions give it a state.
package struct CaseCandidate: Sendable, Equatable {
  package var key: String
  package var source: Case.Source
  package var kind: String
  package var reason: String
  package var store: String
  package var subject: String
  package var userId: String
  package var productId: String
  package var currency: String?
  package var amountMinor: Int64?
  package var chargeGroup: String?
  package var countsAtStake: Bool

  /// Creates a candidate from its fields.
  package init(
    key: String, source: Case.Source, kind: String, reason: String, store: String, subject: String,
    userId: String = "", productId: String = "", currency: String? = nil, amountMinor: Int64? = nil,
    chargeGroup: String? = nil, countsAtStake: Bool = false
  ) {
    self.key = key
    self.source = source
    self.kind = kind
    self.reason = reason
    self.store = store
    self.subject = subject
    self.userId = userId
    self.productId = productId
    self.currency = currency
    self.amountMinor = amountMinor
    self.chargeGroup = chargeGroup
    self.countsAtStake = countsAtStake
  }

  /// The case of a finding: its key, and its money counted once per chain (`store|chain key`): every
  /// finding of a chain is about that chain's charges, and the largest amount among them covers them.
  package init(_ f: Finding) {
    self.init(
      key: f.key, source: .finding, kind: f.kind.rawValue, reason: f.reason.rawValue, store: f.store.rawValue,
      subject: f.chainKey, userId: f.userId, productId: f.productId, currency: f.currency?.code,
      amountMinor: f.amountMinor, chargeGroup: "\(f.store.rawValue)|\(f.chainKey)", countsAtStake: true)
  }

  /// The case of a tie-out cell that does not match: keyed by store, source, day, product, country and
  /// currency; its amount is the gross difference (report − ledger).
  package init(_ cell: TieOutCell) {
    let subject =
      "\(cell.source.rawValue) \(cell.day) \(cell.productId) \(cell.country) \(cell.currency.code)"
    self.init(
      key: Self.key("tieout_cell|\(cell.store.rawValue)|\(subject)"), source: .tieOutCell,
      kind: "tieout_cell",
      reason: cell.status.rawValue, store: cell.store.rawValue, subject: subject, productId: cell.productId,
      currency: cell.currency.code, amountMinor: cell.grossDiffMinor)
  }

  /// The case of a Play order that does not match: keyed by store and order id; its amount is the
  /// earnings charge less the sales item price.
  package init(_ order: TieOutOrder) {
    self.init(
      key: Self.key("tieout_order|\(order.store.rawValue)|\(order.orderId)"), source: .tieOutOrder,
      kind: "tieout_order", reason: order.status.rawValue, store: order.store.rawValue,
      subject: order.orderId,
      productId: order.productId, currency: order.currency.code,
      amountMinor: order.earningsChargeMinor - order.salesItemMinor)
  }

  /// The case of an input whose rejected rows are above the status's share: keyed by role and path.
  package init(rejecting input: InputReport) {
    self.init(
      key: Self.key("rejected_rows|\(input.role)|\(input.path)"), source: .rejectedRows,
      kind: "rejected_rows",
      reason: "rejected_rows", store: "", subject: input.path)
  }

  /// 16 hex digits of SHA-256 over `text`, as finding keys are made.
  package static func key(_ text: String) -> String {
    String(SHA256Digest.hex(of: Array(text.utf8)).prefix(16))
  }

  /// Every case of a run: each finding key once (the first in report order), each tie-out cell and
  /// Play order that does not match, and each input whose rejected rows are above
  /// `rejectedShareLimitPerMille` ‰ of its rows.
  package static func all(
    findings: [Finding], tieOut: TieOut, inputs: [InputReport], rejectedShareLimitPerMille: Int
  ) -> [CaseCandidate] {
    var seen = Set<String>()
    var out: [CaseCandidate] = []
    for f in findings where seen.insert(f.key).inserted { out.append(CaseCandidate(f)) }
    for cell in tieOut.cells where cell.status != .match { out.append(CaseCandidate(cell)) }
    for order in tieOut.orders where order.status != .match { out.append(CaseCandidate(order)) }
    for input in inputs {
      let c = input.counts
      guard c.rejected > 0, c.rejected * 1000 > c.read * rejectedShareLimitPerMille else { continue }
      let candidate = CaseCandidate(rejecting: input)
      if seen.insert(candidate.key).inserted { out.append(candidate) }
    }
    return out
  }
}
