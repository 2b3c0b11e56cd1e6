import Testing

@testable import StoreReconSettings

/// Issue 32: libcurl's TLS failures worded as OpenSSL's internals become one sentence a person
/// understands; libcurl's own plain words are kept.
@Suite struct TLSFailureTextTests {
  @Test func openSSLInternalsBecomeOneSentence() {
    let issue = "OpenSSL/3.0.13: error:06880006:asn1 encoding routines::EVP lib"
    let sentence = TLSFailureText.sentence(
      code: 35, detail: issue, caSetting: "mail.caFile", caFile: "/etc/ssl/smtp-ca.pem")
    #expect(
      sentence
        == "the secure (TLS) connection could not be set up: the server's certificate, or one of the "
        + "certificates in mail.caFile /etc/ssl/smtp-ca.pem, could not be read or was refused; check that "
        + "mail.caFile holds the PEM certificate of the authority that signed the server's certificate, and "
        + "the server's TLS setup")
    for detail in [
      "error:0A000086:SSL routines::certificate verify failed",
      "OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to smtp.acme.example:465",
    ] {
      let text = TLSFailureText.sentence(code: 56, detail: detail, caSetting: "fetch.caFile", caFile: nil)
      #expect(text?.contains("error:") == false && text?.contains("SSL_ERROR") == false, "\(detail)")
    }
  }

  @Test func libcurlsPlainWordsAreKept() {
    #expect(TLSFailureText.showsInternals("SSL certificate problem: self-signed certificate") == false)
    #expect(
      TLSFailureText.sentence(
        code: 60, detail: "SSL certificate problem: self-signed certificate", caSetting: "mail.caFile",
        caFile: nil) == nil)
    #expect(TLSFailureText.showsInternals("error:12345678 is not a code") == false)
  }
}
