import StoreReconCore

extension AppleRun {
  /// The transaction and refund history of every customer worth asking: those never fetched, those a
  /// notification named (`named`), and those whose latest transaction is recent
  /// (``AppleFetchSource/recheckDays``). The ids come from the app's rows (``FetchContext/known``), the
  /// previous `transactions.jsonl` and the notifications. Saves the file and the state every
  /// ``AppleFetchSource/checkpointEvery`` customers and at the end.
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
    for id in due {
      changed = try customer(id, into: &store, &report) || changed
      done += 1
      if done % AppleFetchSource.checkpointEvery == 0 || done == due.count {
        if changed { try context.output.write(store.serialized(), to: AppleTransactionStore.path) }
        changed = false
        try save()
        if done < due.count {
          context.progress.note(
            "fetch apple: \(done)/\(due.count) customers, \(context.http.requestsSent) requests")
        }
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
    let base = context.config.appStoreServerURL
    var revision = customer.revision
    while true {
      var query = [("sort", "ASCENDING")]
      if let revision { query.append(("revision", revision)) }
      let (request, response) = try get(
        "/inApps/v2/history/\(AppleRun.percentEncoded(id))", query: query, base: base, tokens: tokens,
        accepting: [200, 404])
      if response.status == 404 {
        customer.notFound = true
        state.customers[id] = customer
        return false
      }
      let page = try AppleResponse.transactionPage(response, request)
      for entry in page.transactions { changed = store.merge(entry) || changed }
      revision = page.revision
      if !page.hasMore { break }
    }
    customer.revision = revision
    customer.notFound = nil
    var refundRevision = customer.refundRevision
    while true {
      let query = refundRevision.map { [("revision", $0)] } ?? []
      let (request, response) = try get(
        "/inApps/v2/refund/lookup/\(AppleRun.percentEncoded(id))", query: query, base: base, tokens: tokens)
      let page = try AppleResponse.transactionPage(response, request)
      for entry in page.transactions { changed = store.merge(entry) || changed }
      refundRevision = page.revision
      if !page.hasMore { break }
    }
    customer.refundRevision = refundRevision
    customer.activeUntil = store.activeUntil[id] ?? customer.activeUntil
    state.customers[id] = customer
    return changed
  }
}
