// Safety: the X509 is owned and freed once, in deinit; libcrypto reads the DER and PEM bytes inside their
// closures (PEM is copied into a BIO it owns); every temporary (BIO, ASN1 object, name line) is freed by
// `defer`; sizes are bounded before any call.

internal import CCrypto
internal import Glibc

/// One X.509 certificate parsed by libcrypto (`d2i_X509`): its validity, its extensions by OID, its
/// public key. Immutable after parsing, so one value may be read from several threads.
package final class X509Certificate: @unchecked Sendable {
  /// The `X509*`, owned: freed exactly once, in `deinit`.
  let pointer: OpaquePointer
  /// The DER bytes it was parsed from.
  package let der: [UInt8]
  /// Not valid before / after (seconds since 1970, UTC).
  package let notBefore: Int64
  package let notAfter: Int64

  /// Parses one DER certificate; `nil` when the bytes are not exactly one certificate.
  package init?(der: [UInt8]) {
    guard !der.isEmpty, der.count < 1 << 20 else { return nil }
    var parsed: OpaquePointer?
    var consumed = 0
    der.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress else { return }
      var cursor: UnsafePointer<UInt8>? = base
      parsed = d2i_X509(nil, &cursor, bytes.count)
      if let cursor { consumed = base.distance(to: cursor) }
    }
    guard let parsed else { return nil }
    guard consumed == der.count, let from = X509Certificate.seconds(X509_get0_notBefore(parsed)),
      let until = X509Certificate.seconds(X509_get0_notAfter(parsed))
    else {
      X509_free(parsed)
      return nil
    }
    pointer = parsed
    self.der = der
    notBefore = from
    notAfter = until
  }

  deinit { X509_free(pointer) }

  /// The certificates of a PEM text (`-----BEGIN CERTIFICATE-----` blocks, in order); `nil` when it
  /// holds none or one does not parse.
  package static func pem(_ text: [UInt8]) -> [X509Certificate]? {
    guard !text.isEmpty, text.count < 1 << 24 else { return nil }
    let bio = text.withUnsafeBytes { raw -> OpaquePointer? in
      guard let base = raw.baseAddress else { return nil }
      // BIO_new_mem_buf reads the buffer in place: it is copied first so the BIO owns what it reads.
      guard let bio = BIO_new(BIO_s_mem()) else { return nil }
      guard BIO_write(bio, base, Int32(raw.count)) == Int32(raw.count) else {
        BIO_free(bio)
        return nil
      }
      return bio
    }
    guard let bio else { return nil }
    defer { BIO_free(bio) }
    var out: [X509Certificate] = []
    while let x509 = PEM_read_bio_X509(bio, nil, nil, nil) {
      defer { X509_free(x509) }
      let length = i2d_X509(x509, nil)
      guard length > 0 else { return nil }
      var der = [UInt8](repeating: 0, count: Int(length))
      let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
        var cursor = buffer.baseAddress
        return i2d_X509(x509, &cursor)
      }
      guard written == length, let certificate = X509Certificate(der: der) else { return nil }
      out.append(certificate)
    }
    ERR_clear_error()
    return out.isEmpty ? nil : out
  }

  /// Whether the certificate carries an extension with the dotted `oid` (critical or not).
  package func hasExtension(oid: String) -> Bool {
    guard let object = OBJ_txt2obj(oid, 1) else { return false }
    defer { ASN1_OBJECT_free(object) }
    return X509_get_ext_by_OBJ(pointer, object, -1) >= 0
  }

  /// The subject as one line (`CN=…, O=…`), for messages.
  package var subject: String {
    guard let name = X509_get_subject_name(pointer),
      let line = X509_NAME_oneline(name, nil, 0)
    else { return "?" }
    defer { CRYPTO_free(line, #fileID, #line) }
    return String(cString: line)
  }

  /// The certificate's public key when it is an EC P-256 key (the only kind ES256 verifies with).
  package var p256PublicKey: ES256PublicKey? {
    guard let key = X509_get_pubkey(pointer) else { return nil }
    guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
      EVP_PKEY_free(key)
      return nil
    }
    return ES256PublicKey(owning: key)
  }

  /// Seconds since 1970 of an `ASN1_TIME`, or `nil` when it does not parse.
  private static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64? {
    guard let time else { return nil }
    var parts = tm()
    guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
    return Int64(timegm(&parts))
  }
}
