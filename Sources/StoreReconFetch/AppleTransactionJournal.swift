import StoreReconCore
import StoreReconSettings

/// `apple/transactions/`: the App Store transactions a fetch kept, as an append-only journal. Each
/// fetch that finds new or changed transactions writes them as one new file (more than one when it
/// saves part-way), named `<sequence>-<UTC stamp>.jsonl` (`000007-20261130T063012Z.jsonl`) so that the
/// names sort in the order written; a file is never rewritten, so a run's snapshot of it stays good
/// (docs/snapshot.md). The single `apple/transactions.jsonl` of earlier versions becomes the journal's
/// first file, `000000-history.jsonl`.
struct AppleTransactionJournal {
  /// The folder under `fetch.into`.
  static let folder = "apple/transactions"
  /// The single file earlier versions rewrote on every fetch.
  static let legacyPath = "apple/transactions.jsonl"
  /// The name the legacy file takes in the journal.
  static let historyName = "000000-history.jsonl"

  let output: FetchOutput
  /// The journal's file names, in the order they are read (sorted).
  private(set) var names: [String]

  /// The journal under `output`'s folder.
  init(output: FetchOutput) {
    self.output = output
    names = AppleTransactionJournal.listed(output)
  }

  private static func listed(_ output: FetchOutput) -> [String] {
    output.names(in: folder).filter { $0.hasSuffix(".jsonl") }.sorted()
  }

  /// Moves the legacy file, if any, into the journal as its first file (written durably, then the old
  /// one removed; a fetch stopped in between does it again); returns whether it did.
  mutating func migrate() throws(FetchError) -> Bool {
    guard let legacy = output.read(AppleTransactionJournal.legacyPath) else { return false }
    let target = AppleTransactionJournal.folder + "/" + AppleTransactionJournal.historyName
    if let kept = output.read(target), kept != legacy {
      throw FetchError(
        .dataError,
        "\(AppleTransactionJournal.legacyPath) and \(target) both exist and differ (move one of them away)")
    }
    try output.write(legacy, to: target)
    try output.remove(AppleTransactionJournal.legacyPath)
    names = AppleTransactionJournal.listed(output)
    return true
  }

  /// Every kept transaction, the journal's files read in order.
  func load() throws(FetchError) -> AppleTransactionStore {
    var store = AppleTransactionStore()
    for name in names {
      let path = AppleTransactionJournal.folder + "/" + name
      guard let bytes = output.read(path) else {
        throw FetchError(.ioError, "cannot read \(path)")
      }
      try store.load(bytes, name: path)
    }
    return store
  }

  /// Writes `bytes` as the journal's next file, stamped `nowMs`; returns its path under `fetch.into`.
  @discardableResult
  mutating func append(_ bytes: [UInt8], nowMs: Int64) throws(FetchError) -> String {
    let name = AppleTransactionJournal.name(after: names, nowMs: nowMs)
    let path = AppleTransactionJournal.folder + "/" + name
    try output.write(bytes, to: path)
    names.append(name)
    return path
  }

  /// The name of the file written after `names` at `nowMs`: the next sequence number (one more than
  /// the largest of the names that start with six digits), then the UTC stamp.
  static func name(after names: [String], nowMs: Int64) -> String {
    var last = 0
    for name in names {
      let digits = name.prefix(6)
      if digits.count == 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits) {
        last = max(last, n)
      }
    }
    let iso = Instant(ms: nowMs).description
    let stamp = String(iso.prefix(19)).filter { $0 != "-" && $0 != ":" } + "Z"
    return Instant.pad(Int64(last + 1), 6) + "-" + stamp + ".jsonl"
  }
}
