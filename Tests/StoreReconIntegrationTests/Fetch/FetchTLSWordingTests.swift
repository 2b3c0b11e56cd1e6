import Foundation
import Testing
import StoreReconTestSupport

/// Issue 32: a TLS failure libcurl words as OpenSSL's internals (`OpenSSL/3.0.13: error:1100009E:X509
/// V3 routines::invalid certificate`) reaches the user as one sentence saying what failed and what to
/// check (docs/fetch.md).
@Suite(.serialized, .enabled(if: AppleAPIServer.available, AppleAPIServer.unavailable))
struct FetchTLSWordingTests {
  /// The server's certificate with the length of its subjectAltName IP entry broken: still PEM, still a
  /// certificate to libcurl, refused inside OpenSSL during the handshake.
  static func brokenCopy(of path: String, into directory: URL) throws -> URL {
    let pem = try String(contentsOfFile: path, encoding: .utf8)
    let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
    var der = [UInt8](try #require(Data(base64Encoded: body)))
    let entry: [UInt8] = [0x87, 0x04, 0x7F, 0x00, 0x00, 0x01]
    let at = try #require(
      (0...(der.count - entry.count)).first { Array(der[$0..<($0 + entry.count)]) == entry })
    der[at + 1] = 0x05
    let text = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
    let url = directory.appendingPathComponent("broken-ca.pem")
    try Data("-----BEGIN CERTIFICATE-----\n\(text)\n-----END CERTIFICATE-----\n".utf8).write(to: url)
    return url
  }

  @Test func aBrokenCertificateInCaFileIsOneSentenceNotOpenSSLCodes() throws {
    let world = try RunWorld(users: 300, coverDay: false)
    defer { world.remove() }
    let server = try AppleAPIServer()
    defer { server.stop() }
    var fetch = server.fetchConfig(into: "fetched")
    fetch["caFile"] = try Self.brokenCopy(of: server.certificate.certificate, into: world.directory).path
    try world.setConfig(["fetch": fetch])
    let out = try Binary.run(["fetch", "--config", world.config.path, "--quiet"])
    #expect(out.status != 0)
    let errors = out.stderr.split(separator: "\n").filter { $0.contains("error") }
    #expect(errors.count == 1, "\(out.stderr)")
    #expect(!out.stderr.contains("OpenSSL/") && !out.stderr.contains("routines"), "\(out.stderr)")
    #expect(out.stderr.contains("the secure (TLS) connection could not be set up"), "\(out.stderr)")
    #expect(out.stderr.contains("fetch.caFile"), "\(out.stderr)")
  }
}
