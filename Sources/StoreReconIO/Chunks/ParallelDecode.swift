package import StoreReconCore
import StoreReconPlatform

/// Decodes rows already read and counted (accepted) on all cores, in row order: the rows whose
/// payload is costly to decode (a notification's JWS, verified twice). Each part decodes with a
/// decoder of its own (`makeDecoder`: a JWS checker's memo is per thread). A row that fails is taken
/// back from the accepted count and rejected with its reason; the others are emitted in order.
package enum ParallelDecode {
  /// Decodes `rows`; `origin` gives a row's line, `raw` its text for the rejects file.
  package static func run<Row, Out>(
    _ rows: [Row], counts: inout InputCounts, displayName: String, rejects: any RejectSink,
    origin: (Row) -> Origin, raw: (Row) -> String,
    makeDecoder: () -> (Row) throws(RowRejection) -> Out, emit: (Out) -> Void
  ) {
    // A slice at a time, so that a long decode shows its progress (``ReadProgress``).
    var start = 0
    while start < rows.count {
      let end = min(start + sliceRows, rows.count)
      run(
        rows, start..<end, counts: &counts, displayName: displayName, rejects: rejects, origin: origin,
        raw: raw, makeDecoder: makeDecoder, emit: emit)
      ReadProgress.decoding(end, of: rows.count)
      start = end
    }
  }

  /// Rows decoded between two progress reports.
  static let sliceRows = 2048

  /// Decodes `rows[range]` on all cores and emits them in order.
  static func run<Row, Out>(
    _ rows: [Row], _ range: Range<Int>, counts: inout InputCounts, displayName: String,
    rejects: any RejectSink,
    origin: (Row) -> Origin, raw: (Row) -> String,
    makeDecoder: () -> (Row) throws(RowRejection) -> Out, emit: (Out) -> Void
  ) {
    let parts = Parallel.parts(for: range.count, minimum: 64)
    let results = Parallel.map(parts: parts) { part -> [Result<Out, RowRejection>] in
      let decode = makeDecoder()
      return Parallel.range(part, of: parts, count: range.count).map { i in
        Result { () throws(RowRejection) -> Out in try decode(rows[range.lowerBound + i]) }
      }
    }
    var i = range.lowerBound
    for part in results {
      for result in part {
        switch result {
        case .success(let out): emit(out)
        case .failure(let rejection):
          counts.accepted -= 1
          counts.rejected += 1
          rejects.reject(
            Reject(
              file: displayName, line: Int(origin(rows[i]).line), reason: rejection.reason,
              raw: RawText.truncated(raw(rows[i]))))
        }
        i += 1
      }
    }
  }
}
