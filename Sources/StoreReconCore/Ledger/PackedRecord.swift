/// One purchase, refund or void in 40 bytes: what the ledger keeps of a ``StoreTransaction``.
///
/// Strings become numbers (product variant, packed transaction id); optional instants use `Int64.min`
/// for "none". Fields most records lack (revocation details, a tax beside an expiry) live in the
/// ledger's side table, flagged by ``Flags/rare``. The account token and the original purchase date
/// matter only for a chain's first purchase: the ledger keeps them per chain, not per record.
package struct PackedRecord: Sendable, BitwiseCopyable {
  /// Purchase, refund or void instant (ms).
  var at: Int64
  /// Amount in minor units (refunds: positive).
  var amount: Int64
  /// End of the period (Apple `expiresDate`), or `none`; or, with ``Flags/taxInExtra``, the tax.
  var extra: Int64
  /// The transaction id, packed in 8 bytes (pooled ids number texts of the owner's ``TextPool``).
  var tx: CompactID
  /// Product variant (store, name, raw type) in the owner's ``ProductNames``.
  var variant: UInt32
  /// Currency handle index + 1; 0 none.
  var currency: UInt16
  var flags: Flags

  /// "No instant".
  package static let none = Int64.min

  /// Kind, environment and Boolean fields.
  package struct Flags: OptionSet, Sendable, BitwiseCopyable {
    package var rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    // Bits 0–1: kind (purchase 0, refund 1, void 2); bits 2–3: environment.
    package static let trial = Flags(rawValue: 1 << 4)
    package static let familyShared = Flags(rawValue: 1 << 5)
    package static let upgraded = Flags(rawValue: 1 << 6)
    static let pending = Flags(rawValue: 1 << 7)
    /// ``PackedRecord/extra`` holds the tax, not an expiry.
    package static let taxInExtra = Flags(rawValue: 1 << 8)
    /// ``StoreTransaction/noGrace``: no grace past the period paid.
    package static let noGrace = Flags(rawValue: 1 << 9)
    /// The ledger's side table has more for this record.
    package static let rare = Flags(rawValue: 1 << 10)
    /// Derived: a paid charge of its chain as of T (production, amount > 0, not returned…).
    static let paid = Flags(rawValue: 1 << 11)
    /// Derived, bits 12–13: the record's chain's store slot + 1 when the record counts in the revenue
    /// table (a production charge or Play refund row of a production, non-pending chain, as of T).
    static let revenueBits = Flags(rawValue: 3 << 12)

    /// The store slot (``LedgerStorage/slot(_:)``) the record counts under in revenue, or -1.
    @inline(__always) var revenueSlot: Int { Int(rawValue >> 12 & 3) - 1 }

    /// Sets the store slot the record counts under in revenue (-1: it does not count).
    @inline(__always)
    mutating func setRevenueSlot(_ slot: Int) {
      rawValue = rawValue & ~(3 << 12) | UInt16(truncatingIfNeeded: slot + 1) << 12
    }
  }

  @inline(__always)
  var kind: StoreTransaction.Kind {
    switch flags.rawValue & 3 {
    case 0: return .purchase
    case 1: return .refund
    default: return .void
    }
  }

  @inline(__always)
  var environment: Environment {
    switch (flags.rawValue >> 2) & 3 {
    case 0: return .production
    case 1: return .sandbox
    default: return .test
    }
  }

  @inline(__always)
  package static func kindBits(_ kind: StoreTransaction.Kind) -> UInt16 {
    switch kind {
    case .purchase: return 0
    case .refund: return 1
    case .void, .status: return 2
    }
  }

  @inline(__always)
  package static func environmentBits(_ environment: Environment) -> UInt16 {
    switch environment {
    case .production: return 0
    case .sandbox: return 1 << 2
    case .test: return 2 << 2
    }
  }

  /// The transaction id for its text and order (compare ``tx`` for equality).
  @inline(__always) var transactionId: PackedID { tx.id }

  @inline(__always) var isProduction: Bool { flags.rawValue & 0b1100 == 0 }
  @inline(__always) var isFamilyShared: Bool { flags.contains(.familyShared) }
  @inline(__always) var isUpgraded: Bool { flags.contains(.upgraded) }
  @inline(__always) var isTrial: Bool { flags.contains(.trial) }
  @inline(__always) var isPaid: Bool { flags.contains(.paid) }

  /// The currency, if the record carries money.
  @inline(__always)
  var currencyValue: Currency? { currency == 0 ? nil : Currency(tableIndex: Int(currency) - 1) }

  /// The tax stated in the record (0 when none or kept in the side table).
  @inline(__always) var inlineTax: Int64 { flags.contains(.taxInExtra) ? extra : 0 }

  /// End of the period, or `none`.
  @inline(__always) var expires: Int64 { flags.contains(.taxInExtra) ? PackedRecord.none : extra }

  /// Creates the value from its fields.
  package init(
    at: Int64, amount: Int64, extra: Int64, tx: CompactID, variant: UInt32, currency: UInt16, flags: Flags
  ) {
    self.at = at
    self.amount = amount
    self.extra = extra
    self.tx = tx
    self.variant = variant
    self.currency = currency
    self.flags = flags
  }
}

/// What a few records carry beyond ``PackedRecord``: Apple revocations, and a tax beside an original date.
package struct RareFields: Sendable, Equatable {
  var revokedAt: Instant?
  var revocationType: String?
  var revocationReason: Int?
  var revocationPercentMilli: Int64?
  /// A tax stated beside an expiry.
  var tax: Int64?
  /// Upper-cased revocation type, worked out once.
  var revocationTypeUpper: String?
  /// Where the purchase stands in a commitment plan (Apple `MONTHLY` billing plan).
  var commitment: Commitment?

  /// Creates the value from its fields.
  package init(
    revokedAt: Instant? = nil, revocationType: String? = nil, revocationReason: Int? = nil,
    revocationPercentMilli: Int64? = nil, tax: Int64? = nil, revocationTypeUpper: String? = nil,
    commitment: Commitment? = nil
  ) {
    self.commitment = commitment
    self.revokedAt = revokedAt
    self.revocationType = revocationType
    self.revocationReason = revocationReason
    self.revocationPercentMilli = revocationPercentMilli
    self.tax = tax
    self.revocationTypeUpper = revocationTypeUpper
  }
}

/// A Play subscription resource (a `status` record) as the ledger keeps it: at most one per chain.
package struct StatusRecord: Sendable, Equatable {
  /// Subscription start, or ``PackedRecord/none`` when the resource states none (pending).
  var at: Int64
  var expires: Int64
  var amount: Int64
  /// The latest successful order id as written, or ``PackedID/absent``.
  var latestOrder: PackedID
  /// The installment plan's counts, ``Commitment/packed`` (0: not an installments plan). It fills what
  /// would be padding before `linked`.
  var installments: UInt32 = 0
  /// `linkedPurchaseToken`, or ``PackedID/absent``.
  var linked: PackedID
  /// Product variant; the product name may be empty.
  var variant: UInt32
  /// Account token number + 1; 0 none.
  var token: UInt32
  /// Currency handle index + 1; 0 none.
  var currency: UInt16
  /// Bit 0 pending, bit 1 trial, bits 2–3 environment.
  var flags: UInt16

  @inline(__always) var pending: Bool { flags & 1 != 0 }
  @inline(__always) var isTrial: Bool { flags & 2 != 0 }
  @inline(__always)
  var environment: Environment {
    switch (flags >> 2) & 3 {
    case 0: return .production
    case 1: return .sandbox
    default: return .test
    }
  }
  @inline(__always)
  var currencyValue: Currency? { currency == 0 ? nil : Currency(tableIndex: Int(currency) - 1) }

  /// Creates the value from its fields.
  package init(
    at: Int64, expires: Int64, amount: Int64, latestOrder: PackedID, linked: PackedID, variant: UInt32,
    token: UInt32, currency: UInt16, flags: UInt16, installments: UInt32 = 0
  ) {
    self.installments = installments
    self.at = at
    self.expires = expires
    self.amount = amount
    self.latestOrder = latestOrder
    self.linked = linked
    self.variant = variant
    self.token = token
    self.currency = currency
    self.flags = flags
  }
}
