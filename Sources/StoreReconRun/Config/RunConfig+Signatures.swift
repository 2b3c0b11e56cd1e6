import Foundation
package import StoreReconIO
package import StoreReconPlatform
import StoreReconSettings

extension RunConfig {
  /// Reads `appStore.signatures` (`require`, the default; `verify`, which accepts decoded lines as
  /// unverified; `off`) and
  /// `appStore.testRootCertificate` (a PEM or DER file of extra trusted roots, for test data only;
  /// relative to the config's folder). docs/signatures.md describes both.
  package static func parseSignatures(
    _ appStore: [String: Any], into config: inout RunConfig, fail: (String) -> RunError
  ) throws(RunError) {
    if let value = appStore["signatures"] {
      guard let text = value as? String, let mode = SignatureMode(rawValue: text) else {
        throw fail("appStore.signatures must be one of verify, require, off")
      }
      config.appStoreSignatures = mode
    }
    if let value = appStore["testRootCertificate"] {
      guard let text = value as? String, !text.isEmpty else {
        throw fail("appStore.testRootCertificate must be the path of a PEM or DER certificate file")
      }
      config.appStoreTestRoot = config.resolve(text)
    }
    if let value = appStore["verifiedRecord"] {
      guard let text = value as? String, !text.isEmpty else {
        throw fail("appStore.verifiedRecord must be the path of the record of verified signatures, or off")
      }
      if text == "off" {
        config.appStoreVerifiedRecordOff = true
      } else {
        config.appStoreVerifiedRecord = config.resolve(text)
      }
    }
    if let value = appStore["verifiedRecordKey"] {
      guard let text = value as? String, !text.isEmpty else {
        throw fail("appStore.verifiedRecordKey must be the path of the record's key file")
      }
      config.appStoreVerifiedRecordKey = config.resolve(text)
    }
  }

  /// The record of verified signatures and its key file for a run whose report root is `reportRoot`
  /// (docs/signatures.md#verified-once); `nil` when `appStore.verifiedRecord` is `off`.
  package func verifiedRecordPaths(reportRoot: String) -> (record: String, key: String)? {
    guard !appStoreVerifiedRecordOff else { return nil }
    let record =
      appStoreVerifiedRecord ?? (reportRoot == "/" ? "" : reportRoot) + "/" + VerifiedRecordFile.defaultName
    return (record, appStoreVerifiedRecordKey ?? record + ".key")
  }

  /// The run's verifier: the mode, the pinned Apple root and the test root file's certificates.
  package func signatureVerifier() throws(RunError) -> JWSVerifier {
    guard let path = appStoreTestRoot else { return JWSVerifier(mode: appStoreSignatures) }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RunError(.config, "appStore.testRootCertificate: cannot read \(path)")
    }
    let bytes = [UInt8](data)
    guard let roots = X509Certificate.pem(bytes) ?? X509Certificate(der: bytes).map({ [$0] }) else {
      throw RunError(.config, "appStore.testRootCertificate: \(path) is not a PEM or DER certificate")
    }
    return JWSVerifier(mode: appStoreSignatures, testRoots: roots)
  }

  /// The lines the run prints about signatures on every run, when there is something to say: off, or a
  /// test root trusted.
  package var signatureWarnings: [String] {
    guard !appStoreTransactions.isEmpty else { return [] }
    var lines: [String] = []
    if appStoreSignatures == .off {
      lines.append(
        "warning: App Store signatures are NOT verified (appStore.signatures is off): "
          + "anyone who can write the exports can make up purchases")
    }
    if let path = appStoreTestRoot, appStoreSignatures != .off {
      lines.append(
        "warning: App Store JWS lines are also trusted when signed under the TEST root \(path) "
          + "(appStore.testRootCertificate): for test data only")
    }
    return lines
  }
}

extension ReconciliationRun {
  /// Gives the App Store inputs of `plan` the run's verifier (each scoped to its input), and says loudly
  /// what is not verified. With `record` (a whole run's record of verified signatures and its key), the
  /// lines it holds are not verified again; the returned file is saved after the read
  /// (``saveVerifiedRecord(_:progress:)``).
  package static func attachSignatures(
    _ config: RunConfig, to plan: inout [PlannedInput], record paths: (record: String, key: String)?,
    fromScratch: Bool = false, progress: any ProgressSink
  ) throws(RunError) -> VerifiedRecordFile? {
    for line in config.signatureWarnings { progress.note(line) }
    let roles: Set<String> = [
      "app_store.transactions", "app.notifications", "app_store.notification_history",
    ]
    // Stripe's files have no signatures, but their snapshots are checked with the record's key.
    let keyed = roles.union(["stripe.objects", "stripe.events"])
    guard plan.contains(where: { keyed.contains($0.role) }) else { return nil }
    var verifier = try config.signatureVerifier()
    var file: VerifiedRecordFile?
    if let paths, verifier.mode != .off {
      file = VerifiedRecordFile.open(paths, for: &verifier, fromScratch: fromScratch, progress: progress)
    }
    for index in plan.indices where roles.contains(plan[index].role) {
      plan[index].verifier = verifier.scoped(to: plan[index].display)
    }
    return file
  }

  /// Says how many signatures were verified and writes the record of verified signatures with this
  /// run's lines added (only when there is something to add, the old file was not trusted, or a new key
  /// checks snapshots this run wrote: `snapshotsWritten`). A record that cannot be written is said once;
  /// the next run then verifies these lines again.
  package static func saveVerifiedRecord(
    _ file: VerifiedRecordFile, snapshotsWritten: Bool = false, progress: any ProgressSink
  ) {
    let (verified, known) = file.verifier.signatureTally
    let fresh = file.verifier.verifiedKeys
    if verified + known > 0 {
      progress.note(
        "signatures: \(verified) verified, \(known) skipped as verified by an earlier run (\(file.path))")
    }
    guard !fresh.isEmpty || file.rebuild || (snapshotsWritten && file.newKey != nil) else { return }
    do {
      // A new key is written with the first record it checks (never by a run that records nothing).
      if let key = file.newKey { try DurableFile.write(key, to: file.keyPath, mode: 0o600) }
      try DurableFile.write(file.record.bytes(adding: fresh), to: file.path)
    } catch {
      progress.note("warning: \(error); the next run verifies these signatures again")
    }
  }
}

/// The record of verified signatures a whole run reads and saves (docs/signatures.md#verified-once).
package struct VerifiedRecordFile {
  /// The record's file name in the report root when `appStore.verifiedRecord` does not name one.
  package static let defaultName = "verified-jws.bin"
  /// Where the record is saved.
  package var path: String
  /// The record as read (empty when there was none or it was not trusted).
  package var record: VerifiedRecord
  /// The verifier that uses it, whose tally gives the lines to add.
  package var verifier: JWSVerifier
  /// The file was not trusted: it is written again even with nothing to add.
  package var rebuild: Bool
  /// Where the record's key is.
  package var keyPath: String
  /// A key made by this run (there was no key file): written with the record.
  package var newKey: [UInt8]?
  /// The record's key (it also checks the run's snapshots, docs/snapshot.md).
  package var key: [UInt8] = []

  /// Opens the record at `paths` for `verifier` (which then uses it); `nil` when its key cannot be had
  /// (said on `progress`: every signature is then verified in full and nothing is recorded).
  /// `fromScratch`: the old record is not read; every signature is verified and the record rebuilt.
  static func open(
    _ paths: (record: String, key: String), for verifier: inout JWSVerifier, fromScratch: Bool = false,
    progress: any ProgressSink
  ) -> VerifiedRecordFile? {
    let key: [UInt8]
    var made = false
    switch recordKey(paths.key) {
    case .success(let found):
      key = found.key
      made = found.made
    case .failure(let problem):
      progress.note(
        "warning: the key of the record of verified signatures \(paths.key) \(problem.reason): "
          + "every signature is verified in full and none is recorded")
      return nil
    }
    var (record, distrust) = VerifiedRecord.open(
      DurableFile.read(paths.record), macKey: key, roots: verifier.rootsFingerprint)
    if fromScratch {
      record = VerifiedRecord.empty(roots: verifier.rootsFingerprint, macKey: key)
      distrust = nil
    } else if let distrust {
      progress.note(
        "warning: the record of verified signatures \(paths.record) is not trusted: \(distrust); "
          + "every signature is verified in full and the record is rebuilt")
    }
    verifier = verifier.recording(record)
    return VerifiedRecordFile(
      path: paths.record, record: record, verifier: verifier, rebuild: distrust != nil || fromScratch,
      keyPath: paths.key, newKey: made ? key : nil, key: key)
  }

  /// Why a key file cannot be used.
  struct KeyProblem: Error {
    var reason: String
  }

  /// The record's key: the first 32 bytes of the file at `path`, which group and others may not open;
  /// made (32 random bytes, `made`, written with mode 0600 when the record is saved) when there is no
  /// file. A record under a key made now cannot be trusted: it was checked with another key or none.
  static func recordKey(_ path: String) -> Result<(key: [UInt8], made: Bool), KeyProblem> {
    if FileManager.default.fileExists(atPath: path) {
      if let open = MailSettings.openPermissions(path) {
        return .failure(KeyProblem(reason: "\(open); run chmod 600 on it"))
      }
      guard let bytes = DurableFile.read(path) else { return .failure(KeyProblem(reason: "cannot be read")) }
      guard bytes.count >= 32 else {
        return .failure(KeyProblem(reason: "holds \(bytes.count) bytes, fewer than the 32 a key needs"))
      }
      return .success((Array(bytes.prefix(32)), false))
    }
    var generator = SystemRandomNumberGenerator()
    var key: [UInt8] = []
    for _ in 0..<4 {
      let word = generator.next()
      for shift in stride(from: 0, to: 64, by: 8) {
        key.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
      }
    }
    return .success((key, true))
  }
}
