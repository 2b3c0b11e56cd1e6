import Foundation
import Testing

@testable import StoreReconPlatform

/// RS256 signatures from a key `openssl genpkey` makes, checked by libcrypto and by `openssl dgst -verify`.
@Suite(
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"),
    "no /usr/bin/openssl to make an RSA test key: RS256 tests skipped"))
struct RS256SignerTests {
  /// A fresh folder with an RSA key (PKCS#8 PEM, as in a service-account file) and its public key.
  struct KeyFolder {
    let directory: URL
    var privateKey: URL { directory.appendingPathComponent("key.pem") }
    var publicKey: URL { directory.appendingPathComponent("pub.pem") }

    init(bits: Int = 2048) throws {
      directory = FileManager.default.temporaryDirectory.appendingPathComponent("rs256-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try RS256SignerTests.openssl([
        "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:\(bits)", "-out", privateKey.path,
      ])
      try RS256SignerTests.openssl(["pkey", "-in", privateKey.path, "-pubout", "-out", publicKey.path])
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
  }

  @discardableResult
  static func openssl(_ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  @Test func signatureVerifiesWithLibcryptoAndTheOpensslCommand() throws {
    let keys = try KeyFolder()
    defer { keys.remove() }
    let pem = try [UInt8](Data(contentsOf: keys.privateKey))
    #expect(String(decoding: pem, as: UTF8.self).hasPrefix("-----BEGIN PRIVATE KEY-----"))
    let signer = try RS256Signer(pem: pem)
    let message = Array("eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0".utf8)
    let signature = try signer.sign(message)
    #expect(signature.count == 256)

    let publicPEM = try [UInt8](Data(contentsOf: keys.publicKey))
    #expect(RS256Signer.verify(message: message, signature: signature, publicKeyPEM: publicPEM))
    #expect(signer.publicKeyPEM() == publicPEM)
    // PKCS#1 v1.5 is deterministic: the same key and message give the same bytes.
    #expect(try signer.sign(message) == signature)

    let messageFile = keys.directory.appendingPathComponent("message.txt")
    let signatureFile = keys.directory.appendingPathComponent("sig.bin")
    try Data(message).write(to: messageFile)
    try Data(signature).write(to: signatureFile)
    let verify = [
      "dgst", "-sha256", "-verify", keys.publicKey.path, "-signature", signatureFile.path, messageFile.path,
    ]
    #expect(try Self.openssl(verify) == 0)
    // A changed message no longer verifies, with either checker.
    try Data(message + [0x2e]).write(to: messageFile)
    #expect(try Self.openssl(verify) == 1)
    #expect(!RS256Signer.verify(message: message + [0x2e], signature: signature, publicKeyPEM: publicPEM))
  }

  @Test func anotherKeysSignatureDoesNotVerify() throws {
    let (a, b) = (try KeyFolder(), try KeyFolder())
    defer {
      a.remove()
      b.remove()
    }
    let signature = try RS256Signer(pem: [UInt8](Data(contentsOf: a.privateKey))).sign(Array("m".utf8))
    let otherPublic = try [UInt8](Data(contentsOf: b.publicKey))
    #expect(!RS256Signer.verify(message: Array("m".utf8), signature: signature, publicKeyPEM: otherPublic))
  }

  @Test func unusableKeysAreRejectedWithoutTheirBytes() throws {
    #expect(throws: RS256Error("the private key is not a PEM private key")) {
      try RS256Signer(pem: Array("not a key".utf8))
    }
    let keys = try KeyFolder()
    defer { keys.remove() }
    // A public key is not a private key.
    #expect(throws: RS256Error("the private key is not a PEM private key")) {
      try RS256Signer(pem: [UInt8](Data(contentsOf: keys.publicKey)))
    }
    let ecKey = keys.directory.appendingPathComponent("ec.pem")
    try Self.openssl([
      "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", ecKey.path,
    ])
    #expect(throws: RS256Error("the private key is not an RSA key")) {
      try RS256Signer(pem: [UInt8](Data(contentsOf: ecKey)))
    }
    let small = try KeyFolder(bits: 1024)
    defer { small.remove() }
    #expect(throws: RS256Error("the RSA key has fewer than 2048 bits")) {
      try RS256Signer(pem: [UInt8](Data(contentsOf: small.privateKey)))
    }
  }

  @Test func md5MatchesTheKnownDigests() {
    // RFC 1321's test suite.
    #expect(
      MD5Digest.bytes(of: []).map { String(format: "%02x", $0) }.joined()
        == "d41d8cd98f00b204e9800998ecf8427e")
    #expect(
      MD5Digest.bytes(of: Array("abc".utf8)).map { String(format: "%02x", $0) }.joined()
        == "900150983cd24fb0d6963f7d28e17f72")
  }
}
