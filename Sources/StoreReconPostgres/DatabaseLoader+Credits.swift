import StoreReconCore
import StoreReconAppRows
import StoreReconIO

extension DatabaseLoader {
  /// Reads a credits CSV file, handing each accepted row's fields (in contract order) to `send`.
  static func loadCredits(
    _ path: String, fileIndex: Int32, rejects: any RejectSink, send: ([String?], Origin) -> Void
  ) throws(InputError) -> InputCounts {
    try CreditCSVReader().read(path: path, displayName: path, fileIndex: fileIndex, rejects: rejects) {
      send(
        [
          $0.creditId, $0.userId, $0.store.rawValue, $0.transactionId, $0.productId, String($0.quantity),
          $0.creditedAt?.description, $0.reversedAt?.description,
        ], $0.origin)
    }
  }
}

extension DatabaseLoader {
  /// Reads a notifications CSV file, handing each accepted row's fields (in contract order) to `send`;
  /// payloads are stored as they are (a run decodes and verifies them when it reads them back).
  static func loadNotifications(
    _ path: String, fileIndex: Int32, rejects: any RejectSink, send: ([String?], Origin) -> Void
  ) throws(InputError) -> InputCounts {
    try NotificationCSVReader.readRows(path: path, displayName: path, fileIndex: fileIndex, rejects: rejects)
    {
      send(
        [
          $0.store.rawValue, $0.notificationId, $0.receivedAt.description, $0.processedAt?.description,
          $0.payload,
        ], $0.origin)
    }
  }
}

extension DatabaseLoader {
  /// Reads a goodwill CSV file, handing each accepted row's fields (in contract order) to `send`.
  static func loadGoodwill(
    _ path: String, fileIndex: Int32, rejects: any RejectSink, send: ([String?], Origin) -> Void
  ) throws(InputError) -> InputCounts {
    try GoodwillCSVReader().read(path: path, displayName: path, fileIndex: fileIndex, rejects: rejects) {
      send(
        [$0.grantId, $0.userId, $0.productId, $0.startsAt?.description, $0.endsAt?.description, $0.reason],
        $0.origin)
    }
  }
}
