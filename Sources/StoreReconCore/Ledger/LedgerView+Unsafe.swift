// Safety: a LedgerView's buffers are the ledger's own arrays, borrowed for the length of `with` and
// never kept (the view is ~Copyable and borrowed); the ledger is only read meanwhile. Preconditions
// (debug and release): the record order covers the records. Per-record indexes: assertions.

/// The ledger's arrays read in place, for the inner loops of the readout and the revenue table: reading
/// an array property of the ledger (a class) retains and releases the array on every access; a view
/// reads it directly.
///
/// A view exists only inside ``with(_:_:)``, borrowed: it cannot be copied, kept or sent beyond the
/// call (the compiler holds it to that), and the ledger is only read meanwhile. Making it checks that
/// the record order covers the records (a precondition: a released ledger has neither); every read
/// checks its index against the array it reads in debug builds (an assertion, as the ledger's own
/// buffers do: a per-record check on the hot path).
struct LedgerView: ~Copyable {
  /// The ledger read.
  let storage: LedgerStorage
  private let chains: UnsafeBufferPointer<ChainState>
  private let order: UnsafeBufferPointer<UInt32>
  private let records: UnsafeBufferPointer<PackedRecord>
  private let statuses: UnsafeBufferPointer<StatusRecord>

  private init(
    storage: LedgerStorage, chains: UnsafeBufferPointer<ChainState>, order: UnsafeBufferPointer<UInt32>,
    records: UnsafeBufferPointer<PackedRecord>, statuses: UnsafeBufferPointer<StatusRecord>
  ) {
    // Every record has its place in the order (or the ledger was released: then there is none).
    precondition(order.count == records.count, "LedgerView: the record order does not cover the records")
    self.storage = storage
    self.chains = chains
    self.order = order
    self.records = records
    self.statuses = statuses
  }

  /// Calls `body` with a view of `storage`, which must not change until `body` returns.
  @inline(__always)
  static func with<R>(_ storage: LedgerStorage, _ body: (borrowing LedgerView) -> R) -> R {
    storage.chains.withUnsafeBufferPointer { chains in
      storage.order.withUnsafeBufferPointer { order in
        storage.statuses.withUnsafeBufferPointer { statuses in
          let view = LedgerView(
            storage: storage, chains: chains, order: order,
            records: UnsafeBufferPointer(storage.records.buffer),
            statuses: statuses)
          return body(view)
        }
      }
    }
  }

  /// The number of chains.
  var chainCount: Int { chains.count }

  /// Chain `c` (a chain index).
  @inline(__always)
  func chain(_ c: Int) -> ChainState {
    assert(UInt(bitPattern: c) < UInt(chains.count), "LedgerView: chain out of range")
    return chains[c]
  }

  /// The number of the record at position `k` of the ledger's record order.
  @inline(__always)
  func recordNumber(at k: Int) -> Int {
    assert(UInt(bitPattern: k) < UInt(order.count), "LedgerView: position out of range")
    return Int(order[k])
  }

  /// Record number `n`.
  @inline(__always)
  func record(number n: Int) -> PackedRecord {
    assert(UInt(bitPattern: n) < UInt(records.count), "LedgerView: record out of range")
    return records[n]
  }

  /// Play resource `i` (a chain's ``ChainState/status``, when not -1).
  @inline(__always)
  func status(_ i: Int) -> StatusRecord {
    assert(UInt(bitPattern: i) < UInt(statuses.count), "LedgerView: status out of range")
    return statuses[i]
  }
}
