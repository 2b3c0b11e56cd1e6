import Foundation

/// Generates a deterministic demo world for the fictional subscription app Acme Pro: store exports,
/// app rows and a config, with a known set of planted problems and traps that must not be findings.
///
/// Users are generated one at a time and written at once, so memory stays flat for any number of
/// users. Every special user's group is checked against docs/rules.md before it is written; the truth
/// (`truth/planted_findings.csv`) is what those rules say, by construction.
package enum DemoWorld {
  /// Relative path of the truth file.
  package static let truthPath = "truth/planted_findings.csv"
  /// Relative path of the expected rejects per input file.
  package static let rejectsPath = "truth/expected_rejects.csv"
  /// Relative path of the price experiment's truth per arm.
  package static let experimentTruthPath = "truth/experiment_truth.csv"

  /// Writes the demo world into `directory` (created if needed) and returns what it planted.
  package static func generate(
    _ options: DemoOptions, into directory: String,
    progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
  ) throws -> DemoTruth {
    let builder = DemoBuilder(options: options, countries: try DemoCountry.all())

    // Special users spread evenly among clean users.
    let specials = try specialLayout(options)
    let total = options.users
    func position(_ j: Int) -> Int { (2 * j + 1) * total / (2 * specials.count) }

    try removeStaleInputs(in: directory)
    let reports = DemoStoreReports(
      asOf: options.asOf, t: builder.t, seed: options.seed, countries: builder.countries)
    let outputs = try DemoOutputs(directory: directory, t: builder.t, options: options, reports: reports)
    var planted: [PlantedFinding] = []
    var refundSources: [String: String] = [:]
    var next = 0
    var index = 0
    var malformedEntitlements: Set<DemoScenario> = []
    var experiment = DemoExperimentTruth(t: builder.t)
    var notificationPlants = DemoNotificationPlants(count: DemoScenario.count(forUsers: options.users))
    var stripePlants = DemoStripePlants(options)
    let stripe = try DemoStripeOutputs(directory: directory, t: builder.t, options: options)
    let web = try DemoStripeWeb.make(options, builder: builder, directory: directory)
    while index < total {
      var rng = DemoRandom(seed: options.seed, stream: UInt64(index))
      var group: DemoGroup
      var width = 1
      if next < specials.count && index == position(next) {
        let scenario = specials[next]
        next += 1
        width = scenario.users
        group = try specialGroup(
          scenario, at: index, builder: builder, options: options, &rng, &malformedEntitlements)
      } else {
        group = try builder.naturalGroup(builder.user(index, &rng), &rng)
        if options.writesNotificationLog {
          DemoWorld.addNotifications(&group, options: options, userIndex: index)
          notificationPlants.plant(&group, t: builder.t, userIndex: index)
        }
        stripePlants.plant(&group, builder: builder, userIndex: index)
        let found = builder.check.findings(group)
        guard found == group.planted.sorted() else {
          throw DemoError.inconsistentTruth(
            "clean user \(builder.userId(index)) gives \(describe(found))")
        }
        if let web {
          var again = DemoRandom(seed: options.seed, stream: UInt64(index))
          try web.add(&group, user: builder.user(index, &again), index: index)
        }
      }
      planted += group.planted
      refundSources.merge(group.refundSources) { a, _ in a }
      experiment.record(group)
      reports.noteExperimentUsers(group)
      try outputs.emit(group, userIndex: index, &rng)
      try stripe.emit(group, log: outputs.notificationLog)
      index += width
      if index & 1023 < width { progress(index, total) }
    }
    var tail = DemoRandom(seed: options.seed, stream: 0x7A11_0000_0000_0000)
    try outputs.writeMalformedSales(&builder.ids, &tail)
    let webFiles = try stripe.finish(into: directory, reports: reports, outputs: outputs)
    let tieOut = try reports.finish(into: directory, ids: &builder.ids)
    var files = try outputs.close() + tieOut.reportFiles + DemoTieOutTruth.paths + webFiles
    if let web {
      files += try web.close()
      planted += web.planted
    }
    planted.sort()
    try writeTruth(planted, rejects: outputs.rejects, into: directory)
    files += try writeFixedFiles(options, builder: builder, experiment: experiment, into: directory)
    var truth = DemoTruth(
      planted: planted, files: files.sorted(), rejectsPerFile: outputs.rejects,
      experimentArms: experiment.arms, tieOut: tieOut)
    truth.refundSources = refundSources
    return truth
  }

  /// Every special scenario `count` times, shuffled (seeded); a world needs 3 users per special.
  static func specialLayout(_ options: DemoOptions) throws -> [DemoScenario] {
    var specials = DemoScenario.allCases.flatMap {
      Array(repeating: $0, count: $0.count(forUsers: options.users, classic: options.writesNotificationLog))
    }
    var layout = DemoRandom(seed: options.seed, stream: 0x5EC1_A150_0000_0000)
    layout.shuffle(&specials)
    let minimum = 3 * specials.count
    guard options.users >= minimum else {
      throw DemoError.tooFewUsers(requested: options.users, minimum: minimum)
    }
    return specials
  }

  /// The group of special `scenario` starting at user `index`, its truth checked against the rules (the
  /// first promo-only and goodwill-only groups also carry a malformed entitlement row).
  private static func specialGroup(
    _ scenario: DemoScenario, at index: Int, builder: DemoBuilder, options: DemoOptions,
    _ rng: inout DemoRandom, _ malformedEntitlements: inout Set<DemoScenario>
  ) throws -> DemoGroup {
    let users = (0..<scenario.users).map { builder.user(index + $0, &rng) }
    var group = try builder.specialGroup(scenario, users, &rng)
    if (scenario == .promoOnly || scenario == .goodwillOnly),
      malformedEntitlements.insert(scenario).inserted
    {
      group.rawEntitlementRows.append(malformedEntitlement(scenario, users[0].id, builder))
    }
    if options.writesNotificationLog {
      DemoWorld.addNotifications(&group, options: options, userIndex: index)
    }
    let found = builder.check.findings(group)
    guard found == group.planted.sorted() else {
      throw DemoError.inconsistentTruth(
        "\(scenario) for \(users[0].id): planted \(describe(group.planted.sorted())), rules give \(describe(found))"
      )
    }
    return group
  }

  /// Writes the experiment's truth, the FX table, the config and its test root; returns their paths.
  private static func writeFixedFiles(
    _ options: DemoOptions, builder: DemoBuilder, experiment: DemoExperimentTruth, into directory: String
  ) throws -> [String] {
    let fx = DemoFX.text(
      currencies: builder.countries.map(\.currency), from: DemoCalendar.date(builder.worldStart),
      through: options.asOf)
    let config = DemoConfig.files(
      notifications: options.writesNotificationLog, requireSignatures: options.realistic && options.allJWS,
      stripe: options.writesStripe, stripeWeb: options.realistic)
    for (path, text) in [(experimentTruthPath, experiment.csv()), (DemoFX.path, fx)] + config {
      let writer = try DemoFileWriter(directory: directory, relativePath: path)
      try writer.write(bytes: text.utf8)
      try writer.close()
    }
    return [truthPath, rejectsPath, experimentTruthPath, DemoFX.path] + config.map(\.path)
  }

  /// The group's App Store notifications, and the notification findings its planted problems bring:
  /// a refund not applied is also its REFUND notification not applied, a locked-out user also the
  /// purchase notification not applied (docs/rules.md#notification-health).
  static func addNotifications(_ group: inout DemoGroup, options: DemoOptions, userIndex: Int) {
    group.notifications = DemoNotifications.make(
      group, seed: options.seed, userIndex: userIndex, t: options.asOf.next.startUTC)
    for p in group.planted where p.store == .appStore {
      switch (p.kind, p.reason) {
      case ("free_entitlement", "refunded"):
        group.planted.append(
          PlantedFinding(
            kind: "notification_not_applied", reason: "revocation_not_applied", store: .appStore,
            chainKey: p.chainKey, userId: p.userId))
      case ("free_entitlement", "store_expired"):
        // A commitment plan Apple still retries: no EXPIRED notification yet, so nothing to apply.
        if group.chains.contains(where: { $0.key == p.chainKey && $0.periods.last?.commitment != nil }) {
          continue
        }
        group.planted.append(
          PlantedFinding(
            kind: "notification_not_applied", reason: "expiry_not_applied", store: .appStore,
            chainKey: p.chainKey, userId: p.userId))
      case ("orphaned_charge", "locked_out"):
        group.planted.append(
          PlantedFinding(
            kind: "notification_not_applied", reason: "renewal_not_applied", store: .appStore,
            chainKey: p.chainKey, userId: p.userId))
      default:
        continue
      }
    }
  }

  /// Writes `truth/planted_findings.csv` and `truth/expected_rejects.csv`.
  private static func writeTruth(_ planted: [PlantedFinding], rejects: [String: Int], into directory: String)
    throws
  {
    let truth = try DemoFileWriter(directory: directory, relativePath: truthPath)
    try truth.write("kind,reason,store,chain_key,user_id\n")
    var line = DemoLine()
    for p in planted {
      line.reset()
      for (i, field) in [p.kind, p.reason, p.store.rawValue, p.chainKey, p.userId].enumerated() {
        if i > 0 { line.byte(0x2C) }
        line.csv(field)
      }
      try truth.writeLine(line)
    }
    try truth.close()
    let rejectsFile = try DemoFileWriter(directory: directory, relativePath: rejectsPath)
    try rejectsFile.write("file,rejects\n")
    for (path, n) in rejects.sorted(by: { $0.key < $1.key }) {
      try rejectsFile.write(bytes: "\(path),\(n)\n".utf8)
    }
    try rejectsFile.close()
  }

  /// An entitlement row the importer must reject: a timestamp without offset (promo) or an unknown
  /// status (goodwill). Neither belongs to a store chain.
  private static func malformedEntitlement(_ scenario: DemoScenario, _ userId: String, _ builder: DemoBuilder)
    -> String
  {
    let id = builder.ids.entitlementId()
    if scenario == .promoOnly {
      return
        "\(id),\(userId),pro:yearly,promo,,active,2026-06-01T10:00:00,2027-06-01T10:00:00.000Z,2026-06-01T10:00:00.000Z"
    }
    return
      "\(id),\(userId),com.acme.pro.monthly,goodwill,,suspended,2026-06-01T10:00:00.000Z,,2026-06-01T10:00:00.000Z"
  }

  /// Removes files an earlier run left that the config's input patterns would still match (a sales
  /// report of a month this run has no charges in), so a re-run never mixes two worlds.
  private static func removeStaleInputs(in directory: String) throws {
    let patterns = [
      ("exports/apple", "transactions", ".jsonl"), ("exports/apple/transactions", "", ".jsonl"),
      ("exports/play", "salesreport_", ".csv"),
      ("exports/play", "subscriptions", ".jsonl"), ("exports/play", "voided", ".jsonl"),
      ("exports/apple/reports", "S_D_", ".txt"), ("exports/play/earnings", "PlayApps_", ".csv"),
      ("exports/apple", "notification_history", ".jsonl"), ("exports/stripe", "objects", ".jsonl"),
      ("exports/stripe", "events", ".jsonl"),
      ("exports/stripe/reports", "balance_change_from_activity_itemized_", ".csv"),
    ]
    let manager = FileManager.default
    for (folder, prefix, suffix) in patterns {
      let url = URL(fileURLWithPath: directory).appendingPathComponent(folder)
      guard let names = try? manager.contentsOfDirectory(atPath: url.path) else { continue }
      for name in names where name.hasPrefix(prefix) && name.hasSuffix(suffix) {
        do {
          try manager.removeItem(at: url.appendingPathComponent(name))
        } catch {
          throw DemoError.cannotWrite("\(folder)/\(name)", "cannot remove a file of an earlier run: \(error)")
        }
      }
    }
  }

  private static func describe(_ findings: [PlantedFinding]) -> String {
    findings.isEmpty
      ? "none"
      : findings.map { "\($0.kind)/\($0.reason) \($0.chainKey) \($0.userId)" }.joined(separator: "; ")
  }
}
