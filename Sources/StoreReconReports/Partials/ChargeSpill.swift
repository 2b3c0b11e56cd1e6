import Foundation
package import StoreReconCore

/// charges.csv's lines of one pass of a run in passes (docs/partitions.md#runs-in-passes), spilled to a
/// file beside its partial instead of into it: `CL` lines as the partial writes them, in report order.
/// The last step merges the passes' files line by line into charges.csv and
/// revenue_recognition_import.csv, so the lines of the history are never all in memory.
package enum ChargeSpill {
  /// The spill file's name in a pass's folder.
  package static let fileName = "charges.tsv"

  /// A spill file that cannot be read back.
  package struct Failure: Error, Sendable, CustomStringConvertible {
    package var description: String
  }

  /// `ledger`'s lines in report order as `CL` lines, in pieces of about a megabyte.
  package static func write<E: Error>(
    ledger: Ledger, settled: SettledProceeds, emit: ([UInt8]) throws(E) -> Void
  ) throws(E) {
    try ChargeLines.inBlocks(
      ledger: ledger, settled: settled,
      render: { lines -> [UInt8] in
        var out: [UInt8] = []
        for l in lines { append(RunPartial.chargeFields(l), to: &out) }
        return out
      },
      emit: { (piece: [UInt8]) throws(E) in if !piece.isEmpty { try emit(piece) } })
  }

  static func append(_ fields: [String?], to out: inout [UInt8]) {
    for (i, f) in fields.enumerated() {
      if i > 0 { out.append(0x09) }
      out += PartialText.escaped(f)
    }
    out.append(0x0A)
  }

  /// Merges the spill files at `paths` (each in report order, no chain in two of them) into
  /// charges.csv and revenue_recognition_import.csv, each piece handed to `charges` or `imports` in
  /// order: the bytes a one-pass run writes.
  package static func merge(
    _ paths: [String], dayOf: (Instant) -> CivilDate, charges: ([UInt8]) throws -> Void,
    imports: ([UInt8]) throws -> Void
  ) throws {
    var readers = try paths.map { try Reader(path: $0) }
    var heads: [ChargeLine?] = try readers.indices.map { try readers[$0].next() }
    var all = CSVBlock(start: CSVWriter(header: ChargeTables.header).bytes, expected: ChargeTables.pieceBytes)
    var charged = CSVBlock(
      start: CSVWriter(header: ChargeTables.importHeader).bytes, expected: ChargeTables.pieceBytes)
    while true {
      var best: Int?
      for (i, head) in heads.enumerated() {
        guard let head else { continue }
        if let b = best, let current = heads[b], !ChargeLine.reportOrder(head, current) { continue }
        best = i
      }
      guard let b = best, let line = heads[b] else { break }
      ChargeTables.row(line, dayOf: dayOf, to: &all)
      ChargeTables.importRow(line, to: &charged)
      if all.count >= ChargeTables.pieceBytes { try charges(all.takeBytes()) }
      if charged.count >= ChargeTables.pieceBytes { try imports(charged.takeBytes()) }
      heads[b] = try readers[b].next()
    }
    try charges(all.takeBytes())
    try imports(charged.takeBytes())
  }

  /// Reads a spill file's lines a megabyte at a time.
  struct Reader {
    let path: String
    let handle: FileHandle
    var buffer: [UInt8] = []
    var start = 0
    var line = 0
    var ended = false

    init(path: String) throws {
      guard let handle = FileHandle(forReadingAtPath: path) else {
        throw Failure(description: "cannot read \(path)")
      }
      self.path = path
      self.handle = handle
    }

    /// The next line's charge, `nil` at the end of the file.
    mutating func next() throws -> ChargeLine? {
      while true {
        if let nl = buffer[start...].firstIndex(of: 0x0A) {
          let bytes = buffer[start..<nl]
          start = nl + 1
          line += 1
          do {
            let f = PartialFields(values: try PartialText.optionalFields(bytes, line: line), line: line)
            return try RunPartial.chargeLine(f)
          } catch {
            throw Failure(description: "\(path): \(error.description)")
          }
        }
        if ended {
          guard start == buffer.count else {
            throw Failure(description: "\(path): the last line is cut short")
          }
          try? handle.close()
          return nil
        }
        buffer.removeFirst(start)
        start = 0
        let more = try handle.read(upToCount: 1 << 20) ?? Data()
        if more.isEmpty { ended = true } else { buffer += more }
      }
    }
  }
}
