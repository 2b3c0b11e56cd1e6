import StoreReconCore
import StoreReconSettings

extension AppleRun {
  /// The transaction and refund history of every customer worth asking: those never fetched, those a
  /// notification named (`named`), and those whose latest transaction is recent
  /// (``AppleFetchSource/recheckDays``). The ids come from the app's rows (``FetchContext/known``), the
  /// previous `transactions.jsonl` and the notifications. Saves the file and the state at least every
  /// ``AppleFetchSource/checkpointSeconds`` (the file is rewritten whole: not after every customer), at
  /// the end, and before a failure is thrown.
  mutating func customers(named: Set<String>, _ report: inout FetchReport) throws(FetchError) {
    var store = try AppleTransactionStore(file: context.output.read(AppleTransactionStore.path))
    var ids = Set(context.known.keys(for: .appStore)).union(store.originalTransactionIds).union(named)
    ids.formUnion(state.customers.keys)
    let cutoff = nowMs - AppleFetchSource.recheckDays * Instant.msPerDay
    let due = ids.sorted().filter { id in
      guard let customer = state.customers[id] else { return true }
      if named.contains(id) { return true }
      if customer.notFound == true { return false }
      return (customer.activeUntil ?? Int64.max) >= cutoff
    }
    context.progress.note("fetch apple: transaction history of \(due.count) of \(ids.count) customers")
    var changed = false
    var done = 0
    var checkpoint = context.clock.now()
    for id in due {
      do {
        changed = try customer(id, into: &store, &report) || changed
      } catch {
        // Keep what the customers before this one gave, so the next fetch resumes after them.
        if changed { try context.output.write(store.serialized(), to: AppleTransactionStore.path) }
        try save()
        throw error
      }
      done += 1
      if done == due.count || context.clock.now() - checkpoint >= AppleFetchSource.checkpointSeconds {
        if changed { try context.output.write(store.serialized(), to: AppleTransactionStore.path) }
        changed = false
        try save()
        checkpoint = context.clock.now()
      }
      if done % AppleFetchSource.progressEvery == 0 && done < due.count {
        context.progress.note(
          "fetch apple: \(done)/\(due.count) customers, \(context.http.requestsSent) requests")
      }
    }
    report.records += store.entries.count
  }

  /// One customer's transaction history and refund history, each from its last revision; returns whether
  /// a transaction changed. A 404 (an id the API does not know) marks the customer not found.
  mutating func customer(_ id: String, into store: inout AppleTransactionStore, _ report: inout FetchReport)
    throws(FetchError) -> Bool
  {
    var customer = state.customers[id] ?? AppleState.Customer()
    var changed = false
    var activeUntil = customer.activeUntil
    let base = context.config.appStoreServerURL
    var revision = customer.revision
    var seenRevisions = Set(revision.map { [$0] } ?? [])
    while true {
      var query = [("sort", "ASCENDING")]
      if let revision { query.append(("revision", revision)) }
      let (request, response) = try get(
        "/inApps/v2/history/\(AppleRun.percentEncoded(id))", query: query, base: base, tokens: tokens,
        accepting: [200, 404])
      if response.status == 404 {
        customer.notFound = true
        state.customers[id] = customer
        return changed
      }
      let page = try AppleResponse.transactionPage(response, request)
      for entry in page.transactions {
        changed = store.merge(entry) || changed
        activeUntil = max(activeUntil ?? Int64.min, entry.activeUntil)
      }
      revision = page.revision
      if !page.hasMore { break }
      // A page whose revision was seen before would be asked for again and again: the history does not end.
      guard seenRevisions.insert(page.revision).inserted else {
        throw FetchError(
          .dataError, "\(request.label): hasMore with a revision seen before (the history does not end)")
      }
    }
    customer.revision = revision
    customer.notFound = nil
    var refundRevision = customer.refundRevision
    var seenRefundRevisions = Set(refundRevision.map { [$0] } ?? [])
    while true {
      let query = refundRevision.map { [("revision", $0)] } ?? []
      let (request, response) = try get(
        "/inApps/v2/refund/lookup/\(AppleRun.percentEncoded(id))", query: query, base: base, tokens: tokens)
      let page = try AppleResponse.transactionPage(response, request)
      for entry in page.transactions {
        changed = store.merge(entry) || changed
        activeUntil = max(activeUntil ?? Int64.min, entry.activeUntil)
      }
      refundRevision = page.revision
      if !page.hasMore { break }
      guard seenRefundRevisions.insert(page.revision).inserted else {
        throw FetchError(
          .dataError,
          "\(request.label): hasMore with a revision seen before (the refund history does not end)")
      }
    }
    customer.refundRevision = refundRevision
    customer.activeUntil = activeUntil
    state.customers[id] = customer
    return changed
  }
}
