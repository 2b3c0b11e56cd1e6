/// The settled proceeds of single charges, for the price-test readout: what a Play earnings report or
/// an Apple Financial report says the developer got for a charge, where one covers it.
///
/// The same look-ups as revenue's settled proceeds (``RevenueProceeds``), without the reported and
/// estimated fallbacks: a charge no settlement covers keeps the fee schedule's estimate.
package final class SettledProceeds: Sendable {
  let book: RevenueProceeds.Book

  /// The look-ups of `reports` (Apple days as `settings` spans them).
  package init(reports: StoreReportRows, settings: TieOutSettings) {
    book = RevenueProceeds.Book(reports: reports, settings: settings)
  }

  /// Whether any settlement report was read.
  package var isEmpty: Bool { book.play.isEmpty && book.appleSettled.isEmpty && book.stripe.isEmpty }

  /// The settled proceeds of charge record `n` of a `store` chain, if a settlement covers it.
  func proceeds(_ n: Int, _ r: PackedRecord, _ view: borrowing LedgerView, store: Store) -> Int64? {
    switch store {
    case .play:
      guard !book.play.isEmpty, let entry = book.play[PlayOrderKey(r.transactionId, pool: view.pool)] else {
        return nil
      }
      return entry.charge
    case .appStore:
      guard !book.appleSettled.isEmpty, let key = RevenueProceeds.appleKey(r, view, book: book) else {
        return nil
      }
      guard let found = book.appleSettled[key], let perUnit = found else { return nil }
      return perUnit * Int64(view.products.quantity(ofVariant: r.variant))
    case .stripe:
      guard !book.stripe.isEmpty else { return nil }
      return book.stripe.net(
        r.transactionId.string(pool: view.pool), currency: Currency(tableIndex: Int(r.currency) - 1),
        refund: false)
    }
  }
}
