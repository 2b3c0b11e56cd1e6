// Safety: `bytes` is a cell of the caller's record, read within its count during the call and never kept (the
// rejection copies it into a String).

import StoreReconCore
import StoreReconIO

extension StoreCurrency {
  // The look-up on a cell's bytes (a buffer into the record, valid while it is), for the fast paths.

  /// The currency these bytes name; rejects with "unknown currency 'XYZ'" otherwise.
  static func named(bytes: UnsafeBufferPointer<UInt8>) throws(RowRejection) -> Currency {
    guard let currency = Currency.named(bytes: bytes) else {
      throw RowRejection(MoneyError.unknownCurrency(RawText.truncated(bytes)))
    }
    return currency
  }
}
