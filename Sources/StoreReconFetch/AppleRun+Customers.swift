import StoreReconCore
import StoreReconSettings

extension AppleRun {
  /// The transaction and refund history of every customer worth asking: those never fetched, those a
  /// notification named (`named`), and those whose latest transaction is recent
  /// (``AppleFetchSource/recheckDays``). The ids come from the app's rows (``FetchContext/known``), the
  /// journal's transactions and the notifications. What is new or changed goes into a new journal file
  /// with the state at least every ``AppleFetchSource/checkpointSeconds``, at the end, and before a
  /// failure is thrown; no earlier file is rewritten.
  mutating func customers(named: Set<String>, _ report: inout FetchReport) throws(FetchError) {
    var journal = FetchJournal.apple(context.output)
    if try journal.migrate() {
      context.progress.note(journal.migrated("fetch apple", role: "appStore.transactions"))
    }
    var store = try journal.load()
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
    var done = 0
    var checkpoint = context.clock.now()
    let size = batchSize
    while done < due.count {
      let batch = Array(due[done..<min(due.count, done + size)])
      // The batch's customers are asked concurrently (fetch.concurrency), each on its own thread, from a
      // copy of this run; what they gave is merged here, in the batch's order, as a loop would.
      let run = self
      let results = context.http.concurrently(batch.count) { (index) throws(FetchError) in
        try run.customer(batch[index])
      }
      for (id, result) in zip(batch, results) {
        switch result {
        case .success(let fetched):
          for entry in fetched.entries { _ = store.merge(entry) }
          state.customers[id] = fetched.customer
        case .failure(let error):
          // Keep what the customers before this one gave, so the next fetch resumes after them.
          if let bytes = store.takePending() { try journal.append(bytes, nowMs: nowMs) }
          try save()
          throw error
        case nil:
          break
        }
      }
      let before = done
      done += batch.count
      if done == due.count || context.clock.now() - checkpoint >= AppleFetchSource.checkpointSeconds {
        if let bytes = store.takePending() { try journal.append(bytes, nowMs: nowMs) }
        try save()
        checkpoint = context.clock.now()
      }
      if done / AppleFetchSource.progressEvery > before / AppleFetchSource.progressEvery && done < due.count {
        context.progress.note(
          "fetch apple: \(done)/\(due.count) customers, \(context.http.requestsSent) requests")
      }
    }
    report.records += store.entries.count
  }

  /// Customers asked for between two merges (and checks of the checkpoint): ``AppleFetchSource/progressEvery``,
  /// fewer at a low rate so that a checkpoint is at most about a minute of requests late.
  var batchSize: Int {
    let rate = context.http.requestsPerSecond
    guard rate > 0 else { return AppleFetchSource.progressEvery }
    return max(2 * context.http.policy.concurrency, min(AppleFetchSource.progressEvery, Int(rate * 30)))
  }

  /// What one customer's requests gave: its cursors after them, and its transactions in the order they
  /// came (history pages, then refund pages).
  struct CustomerFetch {
    var customer: AppleState.Customer
    var entries: [AppleTransactionStore.Entry] = []
  }

  /// One customer's transaction history and refund history, each from its last revision (in ``state``).
  /// A 404 (an id the API does not know) marks the customer not found. Reads only; safe to run on several
  /// threads at once.
  func customer(_ id: String) throws(FetchError) -> CustomerFetch {
    var fetched = CustomerFetch(customer: state.customers[id] ?? AppleState.Customer())
    var activeUntil = fetched.customer.activeUntil
    let base = context.config.appStoreServerURL
    var revision = fetched.customer.revision
    var seenRevisions = Set(revision.map { [$0] } ?? [])
    while true {
      var query = [("sort", "ASCENDING")]
      if let revision { query.append(("revision", revision)) }
      let (request, response) = try get(
        "/inApps/v2/history/\(AppleRun.percentEncoded(id))", query: query, base: base, tokens: tokens,
        accepting: [200, 404])
      if response.status == 404 {
        fetched.customer.notFound = true
        return fetched
      }
      let page = try AppleResponse.transactionPage(response, request)
      for entry in page.transactions {
        fetched.entries.append(entry)
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
    fetched.customer.revision = revision
    fetched.customer.notFound = nil
    var refundRevision = fetched.customer.refundRevision
    var seenRefundRevisions = Set(refundRevision.map { [$0] } ?? [])
    while true {
      let query = refundRevision.map { [("revision", $0)] } ?? []
      let (request, response) = try get(
        "/inApps/v2/refund/lookup/\(AppleRun.percentEncoded(id))", query: query, base: base, tokens: tokens)
      let page = try AppleResponse.transactionPage(response, request)
      for entry in page.transactions {
        fetched.entries.append(entry)
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
    fetched.customer.refundRevision = refundRevision
    fetched.customer.activeUntil = activeUntil
    return fetched
  }
}
