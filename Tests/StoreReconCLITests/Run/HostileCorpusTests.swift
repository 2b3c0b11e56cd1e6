import Foundation
import Testing
import StoreReconTestSupport

/// Issue 32's hostile cases as a table: each builds a small demo world, makes one hostile change to
/// its inputs or config, runs the job as a user would and checks the outcome — a rejected row with its
/// reason, a refused file or config with its exit code, or reports unchanged from the run before the
/// change. (A hand-edited partial is PartialChecksumTests', a looping fetch the fetch tests'.)
@Suite struct HostileCorpusTests {
  /// What a case must end in.
  struct Outcome: Sendable {
    /// The run's exit code.
    var exit: Int32 = 0
    /// A fragment stderr holds (a refusal's one line).
    var stderr: String?
    /// An input (path) whose rejects file holds `reason`.
    var rejected: (input: String, reason: String)?
    /// The input (path) whose manifest entry must count `duplicates` rows read again.
    var duplicates: (input: String, count: Int)?
    /// Whether the reports (findings, revenue, counts, tie-out) equal the run's before the change.
    var unchanged = false
  }

  /// One hostile change and its outcome.
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var change: @Sendable (RunWorld) throws -> Void
    var outcome: Outcome
    /// Arguments after `run --config … --date … --out … --quiet --no-history`.
    var args: [String] = []
    var testDescription: String { name }
  }

  static let salesDay = "exports/apple/reports/S_D_85012345_20261120.txt"
  static let earningsMonth = "exports/play/earnings/PlayApps_202610.csv"
  static let reports = ["findings.csv", "revenue.csv", "counts.csv", "tieout.csv", "tieout_orders.csv"]

  static let cases: [Case] = [
    Case(
      name: "Units of Int64.max in a Summary Sales row",
      change: { try cells($0, salesDay, line: 2, separator: "\t", [7: "9223372036854775807"]) },
      outcome: Outcome(
        rejected: (salesDay, ",2,Units '9223372036854775807' is too large: beyond the 10^15 one row may hold")
      )),
    Case(
      name: "Units 3,000,000,000 × Customer Price 9,999,999,999.99",
      change: { try cells($0, salesDay, line: 2, separator: "\t", [7: "3000000000", 15: "9999999999.99"]) },
      outcome: Outcome(
        rejected: (salesDay, ",2,Units 3000000000 × Customer Price 9999999999.99 is too large"))),
    Case(
      name: "an earnings row of 90,000,000,000,000,000.00",
      change: { world in
        // The amounts are the row's last cells (the quoted date and title hold commas).
        try edit(world, earningsMonth) { lines in
          var fields = split(lines[1], ",")
          fields[fields.count - 1] = "90000000000000000.00"
          fields[fields.count - 4] = "90000000000000000.00"
          lines[1] = fields.joined(separator: ",")
        }
      },
      outcome: Outcome(rejected: (earningsMonth, "'90000000000000000.00' is too large: beyond the 10^15"))),
    Case(
      name: "a Summary Sales day copied under another name",
      change: { world in
        try FileManager.default.copyItem(
          at: world.directory.appendingPathComponent(salesDay),
          to: world.directory.appendingPathComponent(
            salesDay.replacingOccurrences(of: ".txt", with: "-b.txt")))
      },
      outcome: Outcome(unchanged: true)),
    Case(
      name: "the credits file also given as the notification log",
      change: { try app($0, ["notifications": "app/credits.csv"]) },
      outcome: Outcome(
        exit: 78, stderr: "app.credits and app.notifications name the same file (app/credits.csv)")),
    Case(
      name: "the entitlements file also given as the credentials",
      change: { try app($0, ["credentials": "app/entitlements.csv"]) },
      outcome: Outcome(exit: 78, stderr: "app.entitlements and app.credentials name the same file")),
    Case(
      name: "a notification-log row stored twice",
      change: { try repeatRow($0, "app/notifications.csv", line: 2) },
      outcome: Outcome(duplicates: ("app/notifications.csv", 1), unchanged: true)),
    Case(
      name: "a credit row exported twice",
      change: { try repeatRow($0, "app/credits.csv", line: 5) },  // before: a false credited_twice
      outcome: Outcome(duplicates: ("app/credits.csv", 1), unchanged: true)),
    Case(
      name: "a credit_id repeated with another quantity",
      change: { try repeatRow($0, "app/credits.csv", line: 3) { $0[5] = "9" } },
      outcome: Outcome(
        rejected: ("app/credits.csv", "first read at app/credits.csv line 3 with another quantity"),
        unchanged: true)),
    Case(
      name: "an entitlement row exported twice",
      change: { try repeatRow($0, "app/entitlements.csv", line: 2) },
      outcome: Outcome(duplicates: ("app/entitlements.csv", 1), unchanged: true)),
    Case(
      name: "an entitlement_id repeated with another user",
      change: { try repeatRow($0, "app/entitlements.csv", line: 2) { $0[1] = "u_hostile" } },
      outcome: Outcome(
        rejected: ("app/entitlements.csv", "first read at app/entitlements.csv line 2 with another user_id"),
        unchanged: true)),
    Case(
      name: "an entitlements header naming a column twice",
      change: { try repeatColumn($0, "app/entitlements.csv", "status") },
      outcome: Outcome(
        exit: 65,
        stderr: "app/entitlements.csv: malformed file: the header row (line 1) names column 'status' twice")),
    Case(
      name: "a Play sales header naming a column twice",
      change: { try repeatColumn($0, "exports/play/salesreport_202611.csv", "Order Number") },
      outcome: Outcome(
        exit: 65,
        stderr: "exports/play/salesreport_202611.csv: malformed file: the header row (line 1) names column "
          + "'Order Number' twice")),
    Case(
      name: "an SMTP password file others can read",
      change: { world in
        let file = world.directory.appendingPathComponent("smtp-password")
        try Data("s3cret\n".utf8).write(to: file)
        chmod(file.path, 0o644)
        try world.setConfig([
          "mail": [
            "from": "recon@acme.example", "to": ["finance@acme.example"], "smtp": "smtp://127.0.0.1:1",
            "tls": "none", "username": "recon", "passwordFile": "smtp-password",
          ]
        ])
      },
      outcome: Outcome(
        exit: 78,
        stderr: "(mail.passwordFile) is open to group or others (mode 0644): refused, as libpq refuses"),
      args: ["--mail"]),
  ]

  @Test(arguments: cases)
  func theHostileCaseEndsAsExpected(_ hostile: Case) throws {
    let world = try RunWorld(users: 300)
    defer { world.remove() }
    let expected = hostile.outcome
    var before: [String] = []
    if expected.unchanged {
      let baseline = try world.run(["--no-history"])
      #expect(baseline.status == 0, "\(baseline.stderr)")
      before = try Self.reports.map { try world.file($0) }
    }
    try hostile.change(world)
    let run = try world.run(["--no-history"] + hostile.args)
    #expect(run.status == expected.exit, "\(run.stderr)")
    #expect(!run.stderr.contains("Fatal error") && !run.stderr.contains("Backtrace"), "\(run.stderr)")
    if let fragment = expected.stderr {
      #expect(run.stderr.contains(fragment), "\(run.stderr)")
      if expected.exit == 78 && hostile.args.isEmpty {
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(
          !FileManager.default.fileExists(atPath: world.out.appendingPathComponent("manifest.json").path))
      }
    }
    if let (input, reason) = expected.rejected {
      let name = input.replacingOccurrences(of: "/", with: "_") + ".csv"
      let rejects = try world.file("rejects/\(name)")
      #expect(rejects.contains(reason), "\(rejects)")
    }
    if let (input, count) = expected.duplicates {
      let entry = try Self.manifestInput(world, input)
      #expect(entry["duplicates"] as? Int == count, "\(entry)")
    }
    if expected.exit == 0 {
      // read = accepted + rejected + duplicates + superseded, for every input.
      for entry in try Self.manifestInputs(world) {
        let n = ["accepted", "rejected", "duplicates", "superseded"].map { entry[$0] as? Int ?? 0 }
        #expect(entry["read"] as? Int == n.reduce(0, +), "\(entry)")
      }
    }
    if expected.unchanged {
      #expect(try Self.reports.map { try world.file($0) } == before)
    }
  }

  // MARK: changes

  /// Sets cells of line `line` (1 = header) of `path`.
  static func cells(
    _ world: RunWorld, _ path: String, line: Int, separator: Character, _ values: [Int: String]
  )
    throws
  {
    try edit(world, path) { lines in
      var fields = split(lines[line - 1], separator)
      for (i, value) in values { fields[i] = value }
      lines[line - 1] = fields.joined(separator: String(separator))
    }
  }

  /// Appends line `line` of `path` again, its cells changed by `change`.
  static func repeatRow(
    _ world: RunWorld, _ path: String, line: Int, _ change: (inout [String]) -> Void = { _ in }
  ) throws {
    try edit(world, path) { lines in
      var fields = split(lines[line - 1], ",")
      change(&fields)
      lines.append(fields.joined(separator: ","))
    }
  }

  /// Adds a second column named `column` to `path` (header and rows; the rows' cell is `x`).
  static func repeatColumn(_ world: RunWorld, _ path: String, _ column: String) throws {
    try edit(world, path) { lines in
      lines[0] += "," + column
      for i in lines.indices.dropFirst() { lines[i] += ",x" }
    }
  }

  /// Merges `keys` into the config's `app` object.
  static func app(_ world: RunWorld, _ keys: [String: Any]) throws {
    var root = try JSONSerialization.jsonObject(with: Data(contentsOf: world.config)) as? [String: Any] ?? [:]
    var app = root["app"] as? [String: Any] ?? [:]
    for (k, v) in keys { app[k] = v }
    root["app"] = app
    try JSONSerialization.data(withJSONObject: root).write(to: world.config)
  }

  static func edit(_ world: RunWorld, _ path: String, _ change: (inout [String]) -> Void) throws {
    let url = world.directory.appendingPathComponent(path)
    var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    change(&lines)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
  }

  static func split(_ line: String, _ separator: Character) -> [String] {
    line.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
  }

  static func manifestInputs(_ world: RunWorld) throws -> [[String: Any]] {
    let manifest =
      try JSONSerialization.jsonObject(with: Data(world.file("manifest.json").utf8)) as? [String: Any]
    return manifest?["inputs"] as? [[String: Any]] ?? []
  }

  static func manifestInput(_ world: RunWorld, _ path: String) throws -> [String: Any] {
    try manifestInputs(world).first { $0["path"] as? String == path } ?? [:]
  }
}
