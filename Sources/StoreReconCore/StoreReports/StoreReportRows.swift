/// Which of the stores' own reports (their source of record for money) a row comes from.
package enum StoreReportKind: String, Sendable, CaseIterable, Comparable {
  /// Apple Summary Sales report (Sales and Trends, daily, `S_D_<vendor>_<YYYYMMDD>.txt`).
  case appleSales = "apple_sales"
  /// Apple Subscriber report (Sales and Trends, daily, per-charge rows).
  case appleSubscriber = "apple_subscriber"
  /// Apple Financial report detail (Payments and Financial Reports, Apple fiscal month, per region).
  case appleFinancial = "apple_financial"
  /// Google Play earnings report (monthly, `PlayApps_YYYYMM.csv` inside `earnings_YYYYMM_*.zip`).
  case playEarnings = "play_earnings"

  /// The store the report belongs to.
  package var store: Store { self == .playEarnings ? .play : .appStore }

  package static func < (lhs: StoreReportKind, rhs: StoreReportKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One row of an Apple Summary Sales report, as the tie-out uses it.
///
/// Prices are **per unit**: the row's money is `units × customerPriceMinor` (negative on a refund
/// row, where Apple writes negative units and a negative customer price) and
/// `units × proceedsPerUnitMinor` (Apple writes refund rows' proceeds positive, so the product is
/// negative too).
package struct AppleSalesRow: Sendable, Equatable {
  /// `Begin Date` (`MM/DD/YYYY`): the Pacific-Time day of a daily report.
  package var day: CivilDate
  /// `End Date`; equal to ``day`` in a daily report.
  package var endDay: CivilDate
  /// `SKU`: the in-app purchase's product id (or the app's SKU on app rows).
  package var productId: String
  /// `Product Type Identifier` as written (`IAY`, `IA1`, `1F`, …).
  package var productType: String
  /// `Units`, signed: negative units are refunds.
  package var units: Int64
  /// `Customer Price` per unit, minor units of ``customerCurrency``, signed as written; tax included.
  package var customerPriceMinor: Int64
  /// `Customer Currency`.
  package var customerCurrency: Currency
  /// `Developer Proceeds` per unit, minor units of ``proceedsCurrency``, as written (positive on refunds).
  package var proceedsPerUnitMinor: Int64
  /// `Currency of Proceeds`.
  package var proceedsCurrency: Currency
  /// `Country Code`: the storefront, ISO 3166 alpha-2, upper case.
  package var country: String
  /// `Proceeds Reason` (`Rate After One Year` or empty).
  package var proceedsReason: String = ""
  /// `Subscription` (`New`, `Renewal`, or empty).
  package var subscription: String = ""
  /// `Period` (`1 Month`, …, or empty).
  package var period: String = ""
  /// Where the row was read.
  package var origin: Origin

  /// Creates a row.
  package init(
    day: CivilDate, endDay: CivilDate, productId: String, productType: String, units: Int64,
    customerPriceMinor: Int64, customerCurrency: Currency, proceedsPerUnitMinor: Int64,
    proceedsCurrency: Currency, country: String, origin: Origin
  ) {
    self.day = day
    self.endDay = endDay
    self.productId = productId
    self.productType = productType
    self.units = units
    self.customerPriceMinor = customerPriceMinor
    self.customerCurrency = customerCurrency
    self.proceedsPerUnitMinor = proceedsPerUnitMinor
    self.proceedsCurrency = proceedsCurrency
    self.country = country
    self.origin = origin
  }

  /// An in-app purchase row (`IA1`, `IA9`, `IAY`, `IAC`, `FI1`, with or without a `-M` suffix), not an
  /// app download, update or re-download: only these have transactions in the App Store Server API.
  package var isInApp: Bool { StoreReportProductType.isInApp(productType) }
}

/// What Apple's `Product Type Identifier` codes say.
package enum StoreReportProductType {
  /// In-app purchase codes: `IA…` (in-app purchase, subscriptions) and `FI1` (Mac in-app purchase).
  package static func isInApp(_ code: String) -> Bool {
    let upper = code.uppercased()
    return upper.hasPrefix("IA") || upper.hasPrefix("FI")
  }
}

/// One row of an Apple Subscriber report (daily, one row per charge or refund of a subscription).
package struct AppleSubscriberRow: Sendable, Equatable {
  /// `Event Date` (`YYYY-MM-DD`).
  package var day: CivilDate
  /// `Subscription Name` (the name in App Store Connect, not the product id).
  package var subscriptionName: String
  /// `Subscription Apple ID`.
  package var subscriptionAppleId: String
  /// `Customer Price`, minor units, signed: negative on a refund. Tax included.
  package var customerPriceMinor: Int64
  /// `Customer Currency`.
  package var customerCurrency: Currency
  /// `Developer Proceeds`, minor units, as written (positive on refunds).
  package var proceedsMinor: Int64
  /// `Proceeds Currency`.
  package var proceedsCurrency: Currency
  /// `Country` (alpha-2).
  package var country: String
  /// `Subscriber ID` (anonymous, per subscriber).
  package var subscriberId: String
  /// `Refund` is `Yes`.
  package var refund: Bool
  /// `Purchase Date` of a refunded purchase.
  package var purchaseDay: CivilDate?
  /// `Units`.
  package var units: Int64
  /// `Proceeds Reason`.
  package var proceedsReason: String = ""
  /// Where the row was read.
  package var origin: Origin

  /// Creates a row.
  package init(
    day: CivilDate, subscriptionName: String, subscriptionAppleId: String, customerPriceMinor: Int64,
    customerCurrency: Currency, proceedsMinor: Int64, proceedsCurrency: Currency, country: String,
    subscriberId: String, refund: Bool, purchaseDay: CivilDate?, units: Int64, origin: Origin
  ) {
    self.day = day
    self.subscriptionName = subscriptionName
    self.subscriptionAppleId = subscriptionAppleId
    self.customerPriceMinor = customerPriceMinor
    self.customerCurrency = customerCurrency
    self.proceedsMinor = proceedsMinor
    self.proceedsCurrency = proceedsCurrency
    self.country = country
    self.subscriberId = subscriberId
    self.refund = refund
    self.purchaseDay = purchaseDay
    self.units = units
    self.origin = origin
  }
}

/// One detail row of an Apple Financial report (a fiscal month of one region).
package struct AppleFinancialRow: Sendable, Equatable {
  /// `Start Date` and `End Date` (`MM/DD/YYYY`): Apple's fiscal month.
  package var startDay: CivilDate
  package var endDay: CivilDate
  /// `ISRC/ISBN`: the product id (SKU) — or, where that is blank, `Vendor Identifier`.
  package var productId: String
  /// `Product Type Identifier`.
  package var productType: String
  /// `Quantity`, signed (returns negative).
  package var quantity: Int64
  /// `Partner Share` per unit, minor units of ``partnerShareCurrency`` (always positive).
  package var partnerShareMinor: Int64
  /// `Extended Partner Share` = quantity × partner share, signed, minor units.
  package var extendedPartnerShareMinor: Int64
  /// `Partner Share Currency`: what Apple pays out in.
  package var partnerShareCurrency: Currency
  /// `Sales or Return`: `S` or `R`.
  package var isReturn: Bool
  /// `Country Of Sale` (alpha-2).
  package var country: String
  /// `Customer Price` per unit, minor units of ``customerCurrency``, signed as written.
  package var customerPriceMinor: Int64
  /// `Customer Currency`.
  package var customerCurrency: Currency
  /// Where the row was read.
  package var origin: Origin

  /// Creates a row.
  package init(
    startDay: CivilDate, endDay: CivilDate, productId: String, productType: String, quantity: Int64,
    partnerShareMinor: Int64, extendedPartnerShareMinor: Int64, partnerShareCurrency: Currency,
    isReturn: Bool, country: String, customerPriceMinor: Int64, customerCurrency: Currency, origin: Origin
  ) {
    self.startDay = startDay
    self.endDay = endDay
    self.productId = productId
    self.productType = productType
    self.quantity = quantity
    self.partnerShareMinor = partnerShareMinor
    self.extendedPartnerShareMinor = extendedPartnerShareMinor
    self.partnerShareCurrency = partnerShareCurrency
    self.isReturn = isReturn
    self.country = country
    self.customerPriceMinor = customerPriceMinor
    self.customerCurrency = customerCurrency
    self.origin = origin
  }
}

/// One row of a Google Play earnings report: one money movement of one order.
package struct PlayEarningsRow: Sendable, Equatable {
  /// `Transaction Type`.
  package enum TransactionType: String, Sendable, CaseIterable {
    case charge = "Charge"
    case googleFee = "Google fee"
    case tax = "Tax"
    case chargeRefund = "Charge refund"
    case googleFeeRefund = "Google fee refund"
    case taxRefund = "Tax refund"
    case adjustment = "Adjustment"

    /// The type named `text`, compared without regard to case or surrounding spaces.
    package static func named(_ text: String) -> TransactionType? {
      let key = text.lowercased()
      return allCases.first { $0.rawValue.lowercased() == key }
    }
  }

  /// The earnings month the row belongs to (`PlayApps_YYYYMM` in the file name, else the month of
  /// ``day``): year and month, day 1.
  package var month: CivilDate
  /// `Description`: the order id (`GPA.…`, renewals `..N`), packed where it packs.
  package var order: PlayOrderKey
  /// `Description`: the order id as written.
  package var orderId: String { order.string }
  /// `Transaction Date` (`Sep 3, 2026`).
  package var day: CivilDate
  /// `Transaction Date` and `Transaction Time` as an instant, where the time's zone is known
  /// (`PDT`, `PST`, `UTC`, …).
  package var at: Instant?
  /// `Transaction Type`.
  package var type: TransactionType
  /// `Refund Type` (`Full`, `Partial`, or empty).
  package var refundType: String = ""
  /// `Sku Id` / `SKU ID`: the product id.
  package var productId: String
  /// `Product id` / `Package ID`: the app's package name.
  package var packageName: String = ""
  /// `Product Type` as written (`subscription`, `inapp`, `0`, `1`).
  package var productType: String = ""
  /// `Buyer Country` (alpha-2).
  package var country: String
  /// `Buyer Currency` and `Amount (Buyer Currency)` (signed, minor units).
  package var buyerCurrency: Currency
  package var buyerAmountMinor: Int64
  /// `Currency Conversion Rate`, as written (a decimal string; kept as text, never a float).
  package var conversionRate: String = ""
  /// `Merchant Currency` and `Amount (Merchant Currency)` (signed, minor units): the payout.
  package var merchantCurrency: Currency
  package var merchantAmountMinor: Int64
  /// Where the row was read.
  package var origin: Origin

  /// Creates a row.
  package init(
    month: CivilDate, orderId: String, day: CivilDate, type: TransactionType, productId: String,
    country: String, buyerCurrency: Currency, buyerAmountMinor: Int64, merchantCurrency: Currency,
    merchantAmountMinor: Int64, origin: Origin
  ) {
    self.init(
      month: month, order: PlayOrderKey(orderId), day: day, type: type, productId: productId,
      country: country,
      buyerCurrency: buyerCurrency, buyerAmountMinor: buyerAmountMinor, merchantCurrency: merchantCurrency,
      merchantAmountMinor: merchantAmountMinor, origin: origin)
  }

  /// Creates a row from its order id's key.
  package init(
    month: CivilDate, order: PlayOrderKey, day: CivilDate, type: TransactionType, productId: String,
    country: String, buyerCurrency: Currency, buyerAmountMinor: Int64, merchantCurrency: Currency,
    merchantAmountMinor: Int64, origin: Origin
  ) {
    self.month = month
    self.order = order
    self.day = day
    self.type = type
    self.productId = productId
    self.country = country
    self.buyerCurrency = buyerCurrency
    self.buyerAmountMinor = buyerAmountMinor
    self.merchantCurrency = merchantCurrency
    self.merchantAmountMinor = merchantAmountMinor
    self.origin = origin
  }
}

/// The stores' own reports read for one run.
package struct StoreReportRows: Sendable {
  package var appleSales: [AppleSalesRow] = []
  package var appleSubscriber: [AppleSubscriberRow] = []
  package var appleFinancial: [AppleFinancialRow] = []
  package var playEarnings: [PlayEarningsRow] = []
  /// Apple's financial summaries (Payments and Financial Reports): region lines and payments.
  package var appleFinancialSummary: [AppleFinancialSummaryRow] = []
  package var applePayments: [AppleFinancialPayment] = []
  /// Stripe's itemized balance change reports (`stripe.reports`): one row per balance transaction.
  package var stripeBalance: [StripeBalanceRow] = []
  /// The Stripe charges and refunds of the transaction feed (`stripe.objects`), which the balance
  /// report ties out against; not a report, carried here so the tie-out has both sides.
  package var stripeFeed: [StripeFeedLine] = []

  /// No rows.
  package init() {}

  /// No report rows yet, the Stripe feed's charges and refunds.
  package init(stripeFeed: [StripeFeedLine]) { self.stripeFeed = stripeFeed }

  /// Whether no report was read (or every one was empty).
  package var isEmpty: Bool {
    appleSales.isEmpty && appleSubscriber.isEmpty && appleFinancial.isEmpty && playEarnings.isEmpty
      && appleFinancialSummary.isEmpty && stripeBalance.isEmpty
  }

  /// How many rows were read, all reports together.
  package var count: Int {
    appleSales.count + appleSubscriber.count + appleFinancial.count + playEarnings.count
      + appleFinancialSummary.count + applePayments.count + stripeBalance.count
  }
}
