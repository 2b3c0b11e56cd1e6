/// Renders `manifest.json`: version, options, every input with size, checksum and counts, every output, timings.
enum Manifest {
  static func render(
    result: RunResult, config: RunConfig, configPath: String, outputs: [(String, [UInt8])], timings: [(String, Int64)]
  ) -> String {
    func instant(_ i: Instant?) -> JSONText { i.map { .string($0.description) } ?? .null }
    let inputs: [JSONText] = result.inputs.map { r in
      var fields: [(String, JSONText)] = [
        ("role", .string(r.role)), ("path", .string(r.path)), ("bytes", .int(r.bytes)), ("sha256", .string(r.sha256)),
        ("read", .int(Int64(r.counts.read))), ("accepted", .int(Int64(r.counts.accepted))),
        ("rejected", .int(Int64(r.counts.rejected))), ("rejectsFile", .string(r.rejectsFile)),
        ("firstAt", instant(r.firstAt)), ("lastAt", instant(r.lastAt)), ("elapsedMs", .int(r.elapsedMs)),
      ]
      if let error = r.error { fields.append(("error", .string(error))) }
      return .object(fields)
    }
    let outputFiles: [JSONText] = outputs.map { name, bytes in
      .object([("file", .string(name)), ("bytes", .int(Int64(bytes.count))), ("sha256", .string(SHA256Digest.hex(of: bytes)))])
    }
    let perReason: [(String, JSONText)] = Finding.Reason.allCases.map { reason in
      (reason.rawValue, .int(Int64(result.findings.filter { $0.reason == reason }.count)))
    }
    let grace: [(String, JSONText)] = Store.allCases.map { ($0.rawValue, .int(config.graceDays[$0] ?? 0)) }
    let experiments = result.experiments.map(experiment)
    let feeOptions = fees(config.fees)
    let doc = JSONText.object([
      ("tool", .string("storerecon")), ("version", .string(StoreReconVersion.version)),
      ("date", .string(result.date.description)), ("asOf", .string(result.asOf.description)),
      ("timeZone", .string(config.timeZone)), ("config", .string(configPath)),
      (
        "options",
        .object([
          ("graceDays", .object(grace)), ("toleranceHours", .int(config.toleranceHours)),
          ("rounding", .string(config.rounding.rawValue)),
          ("reportingCurrency", config.reportingCurrency.map { .string($0.code) } ?? .null),
          ("fxRates", config.fxRates.map { .string($0) } ?? .null),
          ("fees", feeOptions),
        ])
      ),
      ("inputs", .array(inputs)),
      ("outputs", .array(outputFiles)),
      ("findingsPerReason", .object(perReason)),
      ("experiments", .array(experiments)),
      ("timingsMs", .object(timings.map { ($0.0, .int($0.1)) })),
    ])
    return doc.rendered()
  }
}
