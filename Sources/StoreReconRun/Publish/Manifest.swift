package import StoreReconPlatform
package import StoreReconCore
import StoreReconReports

/// Renders `manifest.json`: version, options, every input with size, checksum and counts, every output, timings.
package enum Manifest {
  /// The manifest's bytes.
  package static func render(
    result: RunResult, config: RunConfig, configPath: String, database: String? = nil,
    outputs: [(String, [UInt8])], streamed: [(name: String, bytes: Int64, sha256: String)] = [],
    timings: [(String, Int64)]
  ) -> String {
    let inputs: [JSONText] = result.inputs.map(input)
    let outputFiles: [JSONText] =
      outputs.map { name, bytes in
        .object([
          ("file", .string(name)), ("bytes", .int(Int64(bytes.count))),
          ("sha256", .string(SHA256Digest.hex(of: bytes))),
        ])
      }
      + streamed.map {
        .object([("file", .string($0.name)), ("bytes", .int($0.bytes)), ("sha256", .string($0.sha256))])
      }
    var counts: [Finding.Reason: Int] = [:]
    for f in result.findings { counts[f.reason, default: 0] += 1 }
    let perReason: [(String, JSONText)] = Finding.Reason.allCases.map { reason in
      (reason.rawValue, .int(Int64(counts[reason] ?? 0)))
    }
    var fields: [(String, JSONText)] = [
      ("tool", .string("storerecon")), ("version", .string(StoreReconVersion.version)),
      ("date", .string(result.date.description)), ("asOf", .string(result.asOf.description)),
      ("timeZone", .string(config.timeZone)), ("config", .string(configPath)),
      ("options", options(config: config, database: database)),
      ("inputs", .array(inputs)),
      ("inputsMatchedAgain", .array(result.repeatedFiles.map { .string($0) })),
      ("outputs", .array(outputFiles)),
      ("findingsPerReason", .object(perReason)),
      ("incomplete", .array((result.summary?.facts.incomplete ?? []).map { .string($0) })),
      ("skippedRules", .array(result.skippedRules.skips.map(skipped))),
      ("experiments", .array(result.experiments.map(experiment))),
    ]
    if let history = result.history {
      fields.append(
        (
          "history",
          .object(
            [
              ("previousDate", history.previousDate.map { .string($0.description) } ?? .null),
              ("new", .int(Int64(history.newCount))), ("open", .int(Int64(history.openCount))),
              ("resolved", .int(Int64(history.resolvedCount))),
            ] + (result.backfill ? [("backfill", .bool(true))] : []))
        ))
    }
    if let cases = result.cases {
      var perState: [(String, JSONText)] = Case.State.allCases.map {
        ($0.rawValue, .int(Int64(cases.count($0))))
      }
      perState.append(("historyKept", .bool(cases.historyKept)))
      if let status = result.summary?.runStatus {
        perState.append(("subject", .string(status.casesPhrase)))
      }
      fields.append(("cases", .object(perState)))
    }
    fields.append(("timingsMs", .object(timings.map { ($0.0, .int($0.1)) })))
    return JSONText.object(fields).rendered()
  }

  /// One family of rules the run left out: its name, kinds, store (`null`: every store) and causes.
  package static func skipped(_ s: SkippedRules.Skip) -> JSONText {
    .object([
      ("rules", .string(s.name)), ("kinds", .array(s.kinds.map(\.rawValue).sorted().map { .string($0) })),
      ("store", s.store.map { .string($0.rawValue) } ?? .null), ("tieOut", .bool(s.tieOut)),
      ("readouts", .bool(s.readouts)), ("causes", .array(s.causes.map { .string($0) })),
    ])
  }

  /// The run's options (also recorded in `storerecon_runs.options`).
  package static func options(config: RunConfig, database: String?) -> JSONText {
    let grace: [(String, JSONText)] = Store.allCases.map { ($0.rawValue, .int(config.graceDays[$0] ?? 0)) }
    var fields: [(String, JSONText)] = [
      ("graceDays", .object(grace)), ("toleranceHours", .int(config.toleranceHours)),
      ("creditGraceHours", .int(config.creditGraceHours)),
      ("notificationAgeHours", .int(config.notificationAgeHours)),
      ("rounding", .string(config.rounding.rawValue)),
      ("reportingCurrency", config.reportingCurrency.map { .string($0.code) } ?? .null),
      ("fxRates", config.fxRates.map { .string($0) } ?? .null),
      ("fees", fees(config.fees)),
    ]
    if let database { fields.append(("database", .string(database))) }
    return .object(fields)
  }

  /// One input: role, path, size, checksum, counts (also recorded in `storerecon_runs.inputs`).
  package static func input(_ r: InputReport) -> JSONText {
    func instant(_ i: Instant?) -> JSONText { i.map { .string($0.description) } ?? .null }
    var fields: [(String, JSONText)] = [("role", .string(r.role)), ("path", .string(r.path))]
    if let database = r.database {
      fields.append(("source", .string("postgresql")))
      fields.append(("database", .string(database)))
      fields.append(("builtInQuery", .bool(r.builtInQuery)))
    }
    fields += [
      ("bytes", .int(r.bytes)), ("sha256", .string(r.sha256)),
      ("read", .int(Int64(r.counts.read))), ("accepted", .int(Int64(r.counts.accepted))),
      ("rejected", .int(Int64(r.counts.rejected))), ("duplicates", .int(Int64(r.duplicates))),
      ("superseded", .int(Int64(r.superseded))), ("rejectsFile", .string(r.rejectsFile)),
      ("firstAt", instant(r.firstAt)), ("lastAt", instant(r.lastAt)), ("elapsedMs", .int(r.elapsedMs)),
    ]
    if let signatures = r.signatures {
      fields.append(("signatures", .string(signatures)))
      fields.append(("unverified", .int(Int64(r.unverified ?? 0))))
      fields.append(("unpriced", .int(Int64(r.unpriced ?? 0))))
    }
    if let error = r.error { fields.append(("error", .string(error))) }
    return .object(fields)
  }
}
