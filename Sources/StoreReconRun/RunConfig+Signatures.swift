import Foundation
package import StoreReconIO
package import StoreReconPlatform

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
  /// Gives the App Store inputs of `plan` the run's verifier, and says loudly what is not verified.
  package static func attachSignatures(
    _ config: RunConfig, to plan: inout [PlannedInput], progress: any ProgressSink
  ) throws(RunError) {
    for line in config.signatureWarnings { progress.note(line) }
    let roles: Set<String> = [
      "app_store.transactions", "app.notifications", "app_store.notification_history",
    ]
    guard plan.contains(where: { roles.contains($0.role) }) else { return }
    let verifier = try config.signatureVerifier()
    for index in plan.indices where roles.contains(plan[index].role) {
      plan[index].verifier = verifier
    }
  }
}
