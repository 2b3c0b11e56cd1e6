import StoreReconCore
import StoreReconIO

/// Currency look-ups with the rejection reasons importers report.
enum StoreCurrency {
  /// The currency `code` names; rejects with "unknown currency 'XYZ'" otherwise.
  static func named(_ code: String) throws(RowRejection) -> Currency {
    guard let currency = Currency.named(code) else {
      throw RowRejection(MoneyError.unknownCurrency(RawText.truncated(code)))
    }
    return currency
  }

  /// Runs a money conversion, turning its error into a rejection with the error's description.
  static func convert(_ body: () throws(MoneyError) -> Int64) throws(RowRejection) -> Int64 {
    do {
      return try body()
    } catch {
      throw RowRejection(error)
    }
  }
}
