// Safety: every buffer is an array's own storage, used only inside its closure, handed to the fast path and
// the full parser for the call and never kept.

package import StoreReconCore
package import StoreReconIO
package import StoreReconImporters

/// The differential check of the importers' fast paths against their full parsers, one line (or one
/// report) at a time: a fast path may decline a line; when it takes one, the full parser must accept
/// it and yield the same record in every field, and the same packed ledger. The tests and the fuzzers
/// (docs/fuzzing.md) run it on ``LineVariants`` and on mutated inputs.
package enum FastPathCheck {
  /// What the fast path made of an input.
  package enum Verdict: Equatable {
    /// It declined: the full parser decides alone.
    case declined
    /// It took the input and yielded exactly what the full parser yields.
    case agreed
    /// It took the input and yielded something else (or the full parser rejects it): a bug.
    case mismatch(String)

    /// Whether the fast path took the input.
    package var accepted: Bool { self != .declined }
  }

  /// `bytes` without the leading and trailing whitespace the batch import trims before packing.
  static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    func space(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }
    var start = 0
    var end = bytes.count
    while start < end && space(bytes[start]) { start += 1 }
    while end > start && space(bytes[end - 1]) { end -= 1 }
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
  }

  /// The mismatch of two descriptions, or `nil` when they are the same bytes.
  static func compare(_ what: String, fast: String, full: String) -> String? {
    RecordText.same(fast, full) ? nil : "\(what) differs:\n  fast: \(fast)\n  full: \(full)"
  }

  /// One App Store line: the fast path's record (``AppStoreFastPath/transaction(_:origin:)``) and its
  /// packing (``AppStoreFastPath/pack(_:into:cache:)``) against the full path with signatures off.
  package static func appStore(_ bytes: [UInt8]) -> Verdict {
    bytes.withUnsafeBufferPointer { all in
      let line = trimmed(all)
      let origin = Origin(file: -1, line: 0)
      let full = try? AppStoreTransactionImporter.transaction(
        line: line, origin: origin, checker: JWSChecker(JWSVerifier(mode: .off))
      ).0
      let record = AppStoreFastPath().transaction(line, origin: origin)
      let batch = RecordBatch()
      var cache = AppStoreFastPath.PackCache()
      let packed = AppStoreFastPath().pack(line, into: batch, cache: &cache)
      guard record != nil || packed else { return .declined }
      guard let full else { return .mismatch("the fast path takes a line the full path rejects") }
      guard let record, packed else {
        return .mismatch("the fast path's record and packing disagree on declining")
      }
      if let problem = compare("record", fast: RecordText.describe(record), full: RecordText.describe(full)) {
        return .mismatch(problem)
      }
      let fullBatch = RecordBatch()
      fullBatch.add(full)
      if let problem = compare(
        "packed", fast: RecordText.describe(batch), full: RecordText.describe(fullBatch))
      {
        return .mismatch(problem)
      }
      return .agreed
    }
  }

  /// One `subscriptionsv2` line: ``PlaySubscriptionImporter/Packer/packPlain(_:into:)`` against the
  /// full parser's record, packed.
  package static func playSubscription(_ bytes: [UInt8]) -> Verdict {
    bytes.withUnsafeBufferPointer { all in
      let line = trimmed(all)
      let full = try? PlaySubscriptionImporter.transaction(
        from: try JSONLinesImport.parse(line), origin: Origin(file: -1, line: 0))
      let batch = RecordBatch()
      var packer = PlaySubscriptionImporter.Packer()
      guard packer.packPlain(line, into: batch) else { return .declined }
      guard let full else { return .mismatch("the fast path takes a line the full path rejects") }
      let fullBatch = RecordBatch()
      fullBatch.add(full)
      if let problem = compare(
        "packed", fast: RecordText.describe(batch), full: RecordText.describe(fullBatch))
      {
        return .mismatch(problem)
      }
      return .agreed
    }
  }

  /// Every row of a Play sales report (header first): ``PlaySalesReportImporter/Packer/packPlain(_:into:)``
  /// against the full row mapping, packed. Rows that are not valid CSV or have the wrong number of fields
  /// are left out (the import rejects them before either path); a header without the required columns
  /// gives no verdicts.
  package static func playSales(_ file: [UInt8]) -> [Verdict] {
    var verdicts: [Verdict] = []
    do {
      let csv = try CSVReader(
        lines: LineReader(source: MemoryByteSource(file), displayName: "sales"), displayName: "sales")
      let columns = try PlaySalesReportImporter.Columns(csv)
      while let record = try csv.next() {
        guard record.malformed == nil, record.count == csv.header.count else { continue }
        let batch = RecordBatch()
        var packer = PlaySalesReportImporter.Packer(columns: columns)
        guard packer.packPlain(record, into: batch) else {
          verdicts.append(.declined)
          continue
        }
        guard
          let full = try? PlaySalesReportImporter.transaction(
            record, columns, origin: Origin(file: -1, line: 0))
        else {
          verdicts.append(.mismatch("the fast path takes a row the full path rejects: \(record.rawText)"))
          continue
        }
        let fullBatch = RecordBatch()
        fullBatch.add(full)
        let problem = compare(
          "packed", fast: RecordText.describe(batch), full: RecordText.describe(fullBatch))
        verdicts.append(problem.map { .mismatch($0 + "\n  row: \(record.rawText)") } ?? .agreed)
      }
    } catch {
      return verdicts
    }
    return verdicts
  }
}

extension FastPathCheck {
  /// Many lines into one batch each way — the fast path's packing of the lines it takes (one cache
  /// for all, as a chunk has) and the full path's records of the same lines — so that what lines share
  /// (chain keys, products, interned texts, the packing cache) is compared too. The difference, or `nil`.
  package static func appStoreBatch(_ lines: [[UInt8]]) -> String? {
    let fast = RecordBatch()
    let full = RecordBatch()
    var cache = AppStoreFastPath.PackCache()
    let path = AppStoreFastPath()
    let checker = JWSChecker(JWSVerifier(mode: .off))
    for bytes in lines {
      bytes.withUnsafeBufferPointer { all in
        let line = trimmed(all)
        guard path.pack(line, into: fast, cache: &cache),
          let record = try? AppStoreTransactionImporter.transaction(
            line: line, origin: Origin(file: -1, line: 0), checker: checker
          ).0
        else { return }
        full.add(record)
      }
    }
    return compare("batch", fast: RecordText.describe(fast), full: RecordText.describe(full))
  }

  /// ``appStoreBatch(_:)`` for `subscriptionsv2` lines.
  package static func playSubscriptionBatch(_ lines: [[UInt8]]) -> String? {
    let fast = RecordBatch()
    let full = RecordBatch()
    var packer = PlaySubscriptionImporter.Packer()
    for bytes in lines {
      bytes.withUnsafeBufferPointer { all in
        let line = trimmed(all)
        guard packer.packPlain(line, into: fast),
          let record = try? PlaySubscriptionImporter.transaction(
            from: try JSONLinesImport.parse(line), origin: Origin(file: -1, line: 0))
        else { return }
        full.add(record)
      }
    }
    return compare("batch", fast: RecordText.describe(fast), full: RecordText.describe(full))
  }

  /// ``appStoreBatch(_:)`` for a sales report: every row the fast path takes, with one packer.
  package static func playSalesBatch(_ file: [UInt8]) -> String? {
    let fast = RecordBatch()
    let full = RecordBatch()
    do {
      let csv = try CSVReader(
        lines: LineReader(source: MemoryByteSource(file), displayName: "sales"), displayName: "sales")
      let columns = try PlaySalesReportImporter.Columns(csv)
      var packer = PlaySalesReportImporter.Packer(columns: columns)
      while let record = try csv.next() {
        guard record.malformed == nil, record.count == csv.header.count, packer.packPlain(record, into: fast),
          let t = try? PlaySalesReportImporter.transaction(record, columns, origin: Origin(file: -1, line: 0))
        else { continue }
        full.add(t)
      }
    } catch {
      return nil
    }
    return compare("batch", fast: RecordText.describe(fast), full: RecordText.describe(full))
  }
}
