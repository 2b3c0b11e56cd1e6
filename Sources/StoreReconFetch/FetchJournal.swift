import StoreReconCore
import StoreReconSettings

/// A folder of what fetches kept, as an append-only journal: `apple/transactions/` (the App Store
/// transactions), `stripe/objects/` and `stripe/events/` (Stripe's objects and events). Each fetch that
/// finds something new or changed writes it as one new file (more than one when it saves part-way), named
/// `<sequence>-<UTC stamp>.jsonl` (`000007-20261130T063012Z.jsonl`) so that the names sort in the order
/// written; a file is never rewritten, so a run's snapshot of it stays good (docs/snapshot.md). The single
/// file earlier versions rewrote on every fetch becomes the journal's first file, `000000-history.jsonl`.
struct FetchJournal {
  /// The name the legacy file takes in the journal.
  static let historyName = "000000-history.jsonl"

  let output: FetchOutput
  /// The folder under `fetch.into`.
  let folder: String
  /// The single file earlier versions rewrote on every fetch.
  let legacyPath: String
  /// The journal's file names, in the order they are read (sorted).
  private(set) var names: [String]

  /// The journal in `folder` under `output`'s folder, whose earlier single file was `legacyPath`.
  init(output: FetchOutput, folder: String, legacyPath: String) {
    self.output = output
    self.folder = folder
    self.legacyPath = legacyPath
    names = FetchJournal.listed(output, folder)
  }

  /// The App Store transactions' journal.
  static func apple(_ output: FetchOutput) -> FetchJournal {
    FetchJournal(output: output, folder: "apple/transactions", legacyPath: "apple/transactions.jsonl")
  }

  private static func listed(_ output: FetchOutput, _ folder: String) -> [String] {
    output.names(in: folder).filter { $0.hasSuffix(".jsonl") }.sorted()
  }

  /// The line that says a legacy file moved into the journal, for `step` (`fetch apple`), whose run
  /// input is `role`.
  func migrated(_ step: String, role: String) -> String {
    "\(step): \(legacyPath) is now \(folder)/\(FetchJournal.historyName), the journal's first file: read "
      + "\(folder)/*.jsonl in the run (\(role))"
  }

  /// Moves the legacy file, if any, into the journal as its first file (written durably, then the old
  /// one removed; a fetch stopped in between does it again); returns whether it did.
  mutating func migrate() throws(FetchError) -> Bool {
    guard let legacy = output.read(legacyPath) else { return false }
    let target = folder + "/" + FetchJournal.historyName
    if let kept = output.read(target), kept != legacy {
      throw FetchError(
        .dataError,
        "\(legacyPath) and \(target) both exist and differ (move one of them away)")
    }
    try output.write(legacy, to: target)
    try output.remove(legacyPath)
    names = FetchJournal.listed(output, folder)
    return true
  }

  /// Each file's bytes and its path under `fetch.into`, in the journal's order.
  func files() throws(FetchError) -> [(path: String, bytes: [UInt8])] {
    var out: [(path: String, bytes: [UInt8])] = []
    for name in names {
      let path = folder + "/" + name
      guard let bytes = output.read(path) else { throw FetchError(.ioError, "cannot read \(path)") }
      out.append((path, bytes))
    }
    return out
  }

  /// Every kept transaction, the journal's files read in order.
  func load() throws(FetchError) -> AppleTransactionStore {
    var store = AppleTransactionStore()
    for (path, bytes) in try files() { try store.load(bytes, name: path) }
    return store
  }

  /// Writes `bytes` as the journal's next file, stamped `nowMs`; returns its path under `fetch.into`.
  @discardableResult
  mutating func append(_ bytes: [UInt8], nowMs: Int64) throws(FetchError) -> String {
    let name = FetchJournal.name(after: names, nowMs: nowMs)
    let path = folder + "/" + name
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
