import StoreReconCore

/// Renders `experiment_lineage.csv` from the readouts' packed lineage rows, byte for byte as
/// ``CSVWriter`` would: each row's fields are formatted into a ``CSVBlock`` (numbers and instants as
/// digits, ids as the bytes they are kept in, no `String` and no allocation per row); the file's bytes
/// are reserved up front from a sample of the rows.
enum LineageCSV {
  /// `experiment_lineage.csv` for `readouts`, with `header`.
  static func render(_ readouts: [Readout], header: [String]) -> [UInt8] {
    var out = CSVBlock(start: CSVWriter(header: header).bytes, expected: estimate(readouts))
    for readout in readouts {
      let s = readout.lineage.storage
      let (prepared, users, pool) = (Prepared(s), s.users, s.pool)
      for segment in s.segments {
        for i in 0..<segment.count { row(segment[i], users, pool, prepared, into: &out) }
      }
    }
    return out.finish()
  }

  /// The file's size from about 1 row in 64 formatted in full, with 2 % to spare.
  private static func estimate(_ readouts: [Readout]) -> Int {
    var sampledRows = 0
    var sampledBytes = 0
    var rows = 0
    var probe = CSVBlock(start: [], expected: 0)
    for readout in readouts {
      let s = readout.lineage.storage
      let (prepared, users, pool) = (Prepared(s), s.users, s.pool)
      rows += s.count
      for position in stride(from: 0, to: s.count, by: 64) {
        row(s.item(position), users, pool, prepared, into: &probe)
        sampledRows += 1
        sampledBytes += probe.count
        probe.removeAll()
      }
    }
    guard sampledRows > 0 else { return 0 }
    return rows * sampledBytes / sampledRows * 102 / 100 + 4096
  }

  /// The bytes every row of one readout shares, in one block: each field already quoted where it needs
  /// it, found by its range.
  private struct Prepared {
    private(set) var bytes: [UInt8] = []
    private(set) var experiment: Range<Int> = 0..<0
    private(set) var arms: [Range<Int>] = []
    private(set) var stores: [Range<Int>] = []
    private(set) var currencies: [Range<Int>] = []

    init(_ s: CreditedCharges.Storage) {
      experiment = add(s.experimentId)
      arms = s.armIds.map { add($0) }
      stores = Store.allCases.map { add($0.rawValue) }
      currencies = Currency.all.map { add($0.code) }
    }

    private mutating func add(_ text: String) -> Range<Int> {
      let from = bytes.count
      bytes += CSVBlock.quoted(Array(text.utf8))
      return from..<bytes.count
    }
  }

  /// One row of `users`' experiment (ids in `pool`): experiment, arm, user, store, chain key, transaction id, renewal number, charge instant,
  /// currency, gross, proceeds and reporting-currency proceeds (empty for an FX gap).
  @inline(__always)
  private static func row(
    _ item: CreditedCharges.Packed, _ users: [String], _ pool: TextPool, _ p: Prepared,
    into out: inout CSVBlock
  ) {
    out.raw(p.bytes, p.experiment)
    out.comma()
    out.raw(p.bytes, p.arms[Int(item.arm)])
    out.comma()
    out.field(users[Int(item.user)])
    out.comma()
    out.raw(p.bytes, p.stores[LedgerStorage.slot(CreditedCharges.store(item.store))])
    out.comma()
    out.id(item.chain, pool)
    out.comma()
    out.id(item.transaction, pool)
    out.comma()
    out.integer(Int64(item.renewal))
    out.comma()
    out.instant(item.charged)
    out.comma()
    out.raw(p.bytes, p.currencies[Int(item.currency)])
    out.comma()
    out.integer(item.gross)
    out.comma()
    out.integer(item.proceeds)
    out.comma()
    if item.reporting != Int64.min { out.integer(item.reporting) }
    out.newline()
  }
}
