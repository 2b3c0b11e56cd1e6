package import Foundation

/// A Google service-account key file for tests: a fresh 2048-bit RSA key made with `openssl genpkey`,
/// written as Google's JSON key file (`type`, `client_email`, `private_key` as PKCS#8 PEM, …) with its
/// public key beside it for the test server's signature check.
package struct ServiceAccountFixture {
  /// The service account's e-mail (the JWT's `iss`).
  package static let clientEmail = "storerecon-fetch@acme-play.iam.gserviceaccount.com"
  /// Whether `/usr/bin/openssl` is there to make the key.
  package static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") }

  /// The JSON key file.
  package let keyFile: URL
  /// The public key (PEM, SubjectPublicKeyInfo).
  package let publicKey: URL
  /// The private key's PEM text, exactly as it is in the key file (to look for it in outputs).
  package let privateKeyPEM: String

  /// Makes the key and writes `service-account.json` and `service-account.pub.pem` into `directory`.
  package init(in directory: URL) throws {
    let pem = directory.appendingPathComponent("service-account.key.pem")
    publicKey = directory.appendingPathComponent("service-account.pub.pem")
    keyFile = directory.appendingPathComponent("service-account.json")
    try Self.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", pem.path])
    try Self.openssl(["pkey", "-in", pem.path, "-pubout", "-out", publicKey.path])
    privateKeyPEM = try String(contentsOf: pem, encoding: .utf8)
    try FileManager.default.removeItem(at: pem)
    let json: [String: Any] = [
      "type": "service_account", "project_id": "acme-play", "private_key_id": "0123456789abcdef",
      "private_key": privateKeyPEM, "client_email": Self.clientEmail, "client_id": "100000000000000000001",
      "token_uri": "https://oauth2.googleapis.com/token",
    ]
    try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys]).write(
      to: keyFile)
  }

  /// The base64 body lines of the private key (what a leak would show), each long enough to be unique.
  package var privateKeyLines: [String] {
    privateKeyPEM.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") && $0.count >= 40 }
  }

  private static func openssl(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
  }
}
