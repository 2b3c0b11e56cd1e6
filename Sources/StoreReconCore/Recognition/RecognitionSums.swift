/// What revenue recognition adds up per store × product × currency × month, and per billed month ×
/// recognised month (the waterfall): sums over charges, so that partitions add up to the whole run
/// (docs/partitions.md).
package struct RecognitionSums: Sendable, Equatable {
  /// A store × product × currency × month.
  package struct Cell: Hashable, Sendable, Comparable {
    package var store: Store
    package var currency: Currency
    package var productId: String
    package var month: ReportMonth

    /// Creates a cell key.
    package init(store: Store, currency: Currency, productId: String, month: ReportMonth) {
      self.store = store
      self.currency = currency
      self.productId = productId
      self.month = month
    }

    /// Report order: store, currency, product, month.
    package static func < (a: Cell, b: Cell) -> Bool {
      if a.store != b.store { return a.store < b.store }
      if a.currency != b.currency { return a.currency.code < b.currency.code }
      if a.productId != b.productId {
        return Array(a.productId.utf8).lexicographicallyPrecedes(b.productId.utf8)
      }
      return a.month < b.month
    }
  }

  /// A cell's money, in minor units of its currency.
  package struct Amounts: Equatable, Sendable {
    /// Charges made in the month.
    package var billed: Int64 = 0
    /// Refunds made in the month (positive).
    package var refunded: Int64 = 0
    /// Revenue recognised in the month (negative where refunds reverse more than is earned).
    package var recognized: Int64 = 0

    /// Creates amounts.
    package init(billed: Int64 = 0, refunded: Int64 = 0, recognized: Int64 = 0) {
      self.billed = billed
      self.refunded = refunded
      self.recognized = recognized
    }

    /// Adds `other`, setting `overflow` when a sum does not fit an `Int64`.
    package mutating func add(_ other: Amounts, overflow: inout Bool) {
      billed.add(other.billed, overflow: &overflow)
      refunded.add(other.refunded, overflow: &overflow)
      recognized.add(other.recognized, overflow: &overflow)
    }
  }

  /// A store × currency × billed month × recognised month of the waterfall.
  package struct Flow: Hashable, Sendable, Comparable {
    package var store: Store
    package var currency: Currency
    package var billedMonth: ReportMonth
    package var recognizedMonth: ReportMonth

    /// Creates a waterfall key.
    package init(store: Store, currency: Currency, billedMonth: ReportMonth, recognizedMonth: ReportMonth) {
      self.store = store
      self.currency = currency
      self.billedMonth = billedMonth
      self.recognizedMonth = recognizedMonth
    }

    /// Report order: store, currency, billed month, recognised month.
    package static func < (a: Flow, b: Flow) -> Bool {
      if a.store != b.store { return a.store < b.store }
      if a.currency != b.currency { return a.currency.code < b.currency.code }
      if a.billedMonth != b.billedMonth { return a.billedMonth < b.billedMonth }
      return a.recognizedMonth < b.recognizedMonth
    }
  }

  /// The cells' money.
  package var cells: [Cell: Amounts] = [:]
  /// What is recognised of each billed month's charges in each month.
  package var waterfall: [Flow: Int64] = [:]
  /// Whether a sum did not fit an `Int64` (the run stops with exit 65; docs/inputs.md#amounts-beyond-the-bound).
  package var overflowed = false

  /// No sums.
  package init() {}

  /// Adds `other`'s sums to these (the merge of partitions).
  package mutating func add(_ other: RecognitionSums) {
    var overflow = overflowed || other.overflowed
    for (key, amounts) in other.cells { cells[key, default: Amounts()].add(amounts, overflow: &overflow) }
    for (key, amount) in other.waterfall { waterfall[key, default: 0].add(amount, overflow: &overflow) }
    overflowed = overflow
  }
}
