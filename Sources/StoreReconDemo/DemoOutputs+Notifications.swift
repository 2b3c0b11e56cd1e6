import StoreReconCore

/// Writing the App Store notifications of a purchase: a row of the app's log (`signedPayload` JWS)
/// and, for those Apple sent in the last 30 days, a line of the store's notification history.
extension DemoOutputs {
  /// The notifications of `chain`'s purchase `index`; `revoked` and `asBought` are its transaction with
  /// and without the revocation fields.
  func writeNotifications(_ chain: DemoChain, _ index: Int, revoked: [UInt8], asBought: [UInt8]) throws {
    guard let log = notificationLog, let history = notificationHistory else { return }
    for n in chainNotifications where n.period == index {
      // Signing draws from a generator of its own, so the world's other choices stay as they were.
      var rng = DemoRandom(seed: 1, stream: 0)
      var transaction = DemoLine()
      DemoJWS.wrap(n.revoked ? revoked : asBought, into: &transaction, &rng)
      var body = DemoLine()
      body.raw("{\"notificationType\":")
      body.json(n.type)
      if let subtype = n.subtype {
        body.raw(",\"subtype\":")
        body.json(subtype)
      }
      body.raw(",\"notificationUUID\":")
      body.json(n.uuid)
      body.raw(
        ",\"data\":{\"appAppleId\":1234567890,\"bundleId\":\"com.acme.app\",\"bundleVersion\":\"4.2\",")
      body.raw(chain.sandbox ? "\"environment\":\"Sandbox\"" : "\"environment\":\"Production\"")
      body.raw(",\"signedTransactionInfo\":\"")
      body.bytes.append(contentsOf: transaction.bytes)
      body.raw("\"},\"version\":\"2.0\",\"signedDate\":")
      body.int(n.signedAt.ms)
      body.raw("}")
      var signed = DemoLine()
      DemoJWS.wrap(body.bytes, into: &signed, &rng)
      if n.inLog {
        line.reset()
        line.raw("app_store,")
        line.csv(n.uuid)
        line.raw(",")
        line.bytes.append(contentsOf: n.receivedAt.description.utf8)
        line.raw(",")
        if let processed = n.processedAt { line.bytes.append(contentsOf: processed.description.utf8) }
        line.raw(",")
        line.bytes.append(contentsOf: signed.bytes)
        try log.writeLine(line)
      }
      if n.signedAt <= t && n.signedAt > t.adding(ms: -DemoNotifications.historyDays * Instant.msPerDay) {
        line.reset()
        line.raw("{\"signedPayload\":\"")
        line.bytes.append(contentsOf: signed.bytes)
        line.raw(
          n.inLog ? "\",\"sendAttempts\":[{\"attemptDate\":" : "\",\"sendAttempts\":[{\"attemptDate\":")
        line.int(n.signedAt.adding(ms: 1000).ms)
        line.raw(
          n.inLog ? ",\"sendAttemptResult\":\"SUCCESS\"}]}" : ",\"sendAttemptResult\":\"TIMED_OUT\"}]}")
        try history.writeLine(line)
      }
    }
  }
}
