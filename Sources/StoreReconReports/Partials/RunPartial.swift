package import StoreReconCore
import StoreReconPlatform

/// What one partition of a partitioned run contributes to the reports (docs/partitions.md): the
/// findings of the lineages it owns, its sums of revenue, counts and the tie-out's feed side, the
/// records it read twice, the grants of its users. ``RunPartial/merged(_:)`` adds N of them up into
/// what one unpartitioned run computes.
package struct RunPartial: Sendable, Equatable {
  /// The file's first line; the number is the format's version (2: the `sha256` line after `end`).
  package static let header = "storerecon-partial 2"
  /// The file's name inside a partition's output folder.
  package static let fileName = "partial.tsv"

  package var partition: PartitionSpec
  package var date: CivilDate
  /// SHA-256 of what the partition read: the config file and every input's role, name, size and
  /// checksum (the merge checks its own read against it).
  package var inputs = ""
  /// SHA-256 of the keymap file the partition was cut by (all partials of a merge share it).
  package var keymap = ""
  /// In report order.
  package var findings: [Finding] = []
  /// For the findings about a notification: `store|notification id` → notifications.csv's type,
  /// signed, received and processed instants and age (as the report writes them).
  package var notificationFields: [String: [String]] = [:]
  package var revenue: [RevenueRow] = []
  /// Revenue recognition sums (``RevenueRecognition``): `RR` and `RW` lines.
  package var recognition = RecognitionSums()
  /// charges.csv's lines (``ChargeLines``): `CL` lines.
  package var charges: [ChargeLine] = []
  /// A run in passes: the passes' charge spill files (``ChargeSpill``), which hold the charges.csv
  /// lines in place of ``charges``. Not written to the file.
  package var chargeSpills: [String] = []
  /// The counts before the stores' own units (chains paid through, active entitlements).
  package var counts: [CountsRow] = []
  /// Play sales units of the report day per product; `nil` where the run reads no Play sales report.
  package var playUnits: [String: Int64]?
  package var tieOut = TieOutFeedRows()
  package var duplicates: [RecordDuplicate] = []
  package var grants: [GrantRow] = []
  /// Active entitlements per store that no export of the config could check.
  package var unchecked: [Store: Int] = [:]
  /// Each experiment's crediting pass over the partition's lineages.
  package var readouts: [ReadoutPartial] = []
  /// A worker's engine-keyed inputs, by their index in the run's plan: what it read of each and its
  /// rejects (a `run --partition` partial has none: its merge reads every input again).
  package var engineInputs: [Int: EngineInput] = [:]

  /// An empty partial of partition `partition` for report date `date`.
  package init(partition: PartitionSpec, date: CivilDate) {
    self.partition = partition
    self.date = date
  }
}

extension RunPartial {
  /// The file's bytes: the header, `partition I N`, `date D`, then one tagged line per row, `end`, and
  /// `sha256 <hex>` of every byte before that line (docs/partitions.md#the-partial-file).
  package func rendered() -> [UInt8] {
    var bytes = content()
    var out = PartialLines()
    out.line(["sha256", SHA256Digest.hex(of: bytes)])
    bytes += out.bytes
    return bytes
  }

  /// The file's bytes up to its `end` line (what the `sha256` line states the checksum of).
  func content() -> [UInt8] {
    var out = PartialLines()
    out.line([RunPartial.header])
    out.line(["partition", String(partition.index), String(partition.count)])
    out.line(["date", date.description])
    out.line(["inputs", inputs])
    out.line(["keymap", keymap])
    for f in findings {
      out.line(
        [
          "F", f.reason.rawValue, f.store.rawValue, f.chainKey, f.userId, f.productId, f.currency?.code,
          f.amountMinor.map(String.init), f.detail, f.notificationId, f.key,
        ])
    }
    for key in notificationFields.keys.sorted() { out.line(["N", key] + (notificationFields[key] ?? [])) }
    for r in revenue {
      out.line([
        "R", r.day.description, r.store.rawValue, r.productId, r.currency.code, String(r.charges),
        String(r.grossMinor), String(r.taxMinor), String(r.refundsMinor), String(r.refundCount),
        String(r.proceedsMinor), r.proceedsSource.rawValue, String(r.disputedMinor),
        String(r.disputeFeesMinor),
      ])
    }
    for fields in recognitionLines() { out.line(fields) }
    for fields in chargeLines() { out.line(fields) }
    for c in counts {
      out.line([
        "C", c.store.rawValue, c.productId, String(c.chainsPaidThrough), String(c.entitlementsActive),
      ])
    }
    if let playUnits {
      out.line(["PU"])
      for product in playUnits.keys.sorted() { out.line(["P", product, String(playUnits[product] ?? 0)]) }
    }
    tieOutLines(&out)
    for d in duplicates {
      out.line([
        "D", d.kind.rawValue, d.store.rawValue, d.id, d.record, String(d.keptInput), String(d.keptLine),
        String(d.droppedInput), String(d.droppedLine),
      ])
    }
    for g in grants {
      out.line([
        "G", g.source, g.grantId, g.userId, g.productId, g.startsAt.map { String($0.ms) },
        g.endsAt.map { String($0.ms) }, g.active ? "1" : "0", g.reason,
      ])
    }
    for store in unchecked.keys.sorted() { out.line(["U", store.rawValue, String(unchecked[store] ?? 0)]) }
    for r in readouts {
      out.line(["X", r.experimentId])
      for fields in r.lines() { out.line(fields) }
    }
    for index in engineInputs.keys.sorted() {
      guard let e = engineInputs[index] else { continue }
      out.line([
        "IN", String(index), String(e.counts.read), String(e.counts.accepted), String(e.counts.rejected),
        e.firstAt.map { String($0.ms) }, e.lastAt.map { String($0.ms) }, e.unverified.map(String.init),
        e.unpriced.map(String.init), e.signatures, e.error, String(e.duplicates),
      ])
      for r in e.rejects { out.line(["RJ", String(index), String(r.line), r.file, r.reason, r.raw]) }
    }
    out.line(["end"])
    return out.bytes
  }
}

extension RunPartial {
  /// The tie-out's feed side: `TC` cells, `TO` Play sales rows, `TS` Stripe charges and refunds.
  func tieOutLines(_ out: inout PartialLines) {
    for c in tieOut.cells {
      out.line(
        [
          "TC", c.source.rawValue, c.day.description, c.productId, c.country, c.currency.code,
          String(c.units),
          String(c.grossMinor), String(c.proceedsMinor), String(c.freeUnits), String(c.ids.count),
        ] + c.ids.shown)
    }
    for o in tieOut.orders {
      out.line([
        "TO", o.orderId, o.month.description, o.productId, o.currency.code, String(o.itemMinor),
        String(o.feeMinor),
      ])
    }
    for l in tieOut.stripe {
      out.line([
        "TS", l.kind.rawValue, l.id, l.chargeId, l.invoiceId, String(l.amountMinor), l.currency.code,
        String(l.at.ms), l.productId, l.live ? "1" : "0", l.chainKey,
      ])
    }
  }
}

/// Tab-separated, escaped lines being written.
struct PartialLines {
  var bytes: [UInt8] = []

  mutating func line(_ fields: [String?]) {
    for (k, f) in fields.enumerated() {
      if k > 0 { bytes.append(0x09) }
      bytes += PartialText.escaped(f)
    }
    bytes.append(0x0A)
  }
}
