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
    let parts = Parallel.parts(for: rows.count, minimum: 64)
    let results = Parallel.map(parts: parts) { part -> [Result<Out, RowRejection>] in
      let decode = makeDecoder()
      return Parallel.range(part, of: parts, count: rows.count).map { i in
        Result { () throws(RowRejection) -> Out in try decode(rows[i]) }
      }
    }
    var i = 0
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
