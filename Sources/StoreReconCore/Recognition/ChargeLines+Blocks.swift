import StoreReconPlatform

extension ChargeLines {
  /// The lines of `ledger` in report order, a block of whole chains at a time: `render` turns each
  /// block's lines into its output (several blocks at once, on every core) and `emit` takes the outputs
  /// in order. Only one wave of blocks is ever in memory, never the whole list (charges.csv holds every
  /// charge and refund of the history: about 2.7 million lines at 300,000 realistic users).
  ///
  /// The blocks follow the chains in report order (store, then key in UTF-8 byte order) and never cut
  /// apart chains of one store and key, so sorting each block by ``ChargeLine/reportOrder(_:_:)`` gives
  /// the lines exactly as sorting all of them does.
  package static func inBlocks<T, E: Error>(
    ledger: Ledger, settled: SettledProceeds, chainsPerBlock: Int = 2_048,
    render: ([ChargeLine]) -> T, emit: (T) throws(E) -> Void
  ) throws(E) {
    let s = ledger.storage
    let t = ledger.asOf.ms
    let (order, starts) = reportOrder(s, chainsPerBlock: max(1, chainsPerBlock))
    let wave = Parallel.cores * 4
    var first = 0
    while first + 1 < starts.count {
      let base = first
      let n = min(wave, starts.count - 1 - base)
      let outputs = LedgerView.with(s) { view in
        Parallel.map(parts: n) { k -> T in
          var out: [ChargeLine] = []
          for i in starts[base + k]..<starts[base + k + 1] {
            add(chain: Int(order[i]), view, book: settled.book, asOf: t, to: &out)
          }
          out.sort(by: ChargeLine.reportOrder)
          return render(out)
        }
      }
      for output in outputs { try emit(output) }
      first += n
    }
  }

  /// The chain indexes in report order and where each block starts in it (the last entry: the end).
  /// The ledger keeps its chains sorted by store and key as Swift orders texts, which is byte order
  /// for ASCII keys: then the order is the ledger's own, checked pair by pair.
  static func reportOrder(_ s: LedgerStorage, chainsPerBlock: Int) -> (order: [Int32], starts: [Int]) {
    let count = s.chains.count
    let pool = s.pool
    let chains = s.chains
    func compare(_ a: Int, _ b: Int) -> Int {
      let x = chains[a]
      let y = chains[b]
      if x.store != y.store { return x.store < y.store ? -1 : 1 }
      return x.key.withBytes(pool: pool) { p in y.key.withBytes(pool: pool) { q in ByteOrder.compare(p, q) } }
    }
    var order = (0..<count).map { Int32($0) }
    if (1..<max(1, count)).contains(where: { compare($0 - 1, $0) > 0 }) {
      order.sort { compare(Int($0), Int($1)) < 0 }
    }
    var starts = [0]
    var size = 0
    for i in 0..<count {
      if size >= chainsPerBlock && compare(Int(order[i - 1]), Int(order[i])) != 0 {
        starts.append(i)
        size = 0
      }
      size += 1
    }
    if count > 0 { starts.append(count) }
    return (order, starts)
  }
}
