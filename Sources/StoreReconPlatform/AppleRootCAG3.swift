/// Apple Root CA - G3, the root of every App Store JWS chain (Apple PKI,
/// https://www.apple.com/certificateauthority/AppleRootCA-G3.cer): the DER certificate as base64.
/// Public data, pinned here so that no system trust store takes part. `CN=Apple Root CA - G3,
/// OU=Apple Certification Authority, O=Apple Inc., C=US`, valid 2014-04-30 to 2039-04-30, an EC P-384
/// key. Its SHA-256 fingerprint (of the DER) is ``sha256``; docs/signatures.md gives it too.
package enum AppleRootCAG3 {
  /// The certificate, DER as standard base64.
  package static let base64 =
    "MIICQzCCAcmgAwIBAgIILcX8iNLFS5UwCgYIKoZIzj0EAwMwZzEbMBkGA1UEAwwSQXBwbGUgUm9vdCBDQSAtIEczMSYwJAYD"
    + "VQQLDB1BcHBsZSBDZXJ0aWZpY2F0aW9uIEF1dGhvcml0eTETMBEGA1UECgwKQXBwbGUgSW5jLjELMAkGA1UEBhMCVVMwHhcN"
    + "MTQwNDMwMTgxOTA2WhcNMzkwNDMwMTgxOTA2WjBnMRswGQYDVQQDDBJBcHBsZSBSb290IENBIC0gRzMxJjAkBgNVBAsMHUFw"
    + "cGxlIENlcnRpZmljYXRpb24gQXV0aG9yaXR5MRMwEQYDVQQKDApBcHBsZSBJbmMuMQswCQYDVQQGEwJVUzB2MBAGByqGSM49"
    + "AgEGBSuBBAAiA2IABJjpLz1AcqTtkyJygRMc3RCV8cWjTnHcFBbZDuWmBSp3ZHtfTjjTuxxEtX/1H7YyYl3J6YRbTzBPEVoA"
    + "/VhYDKX1DyxNB0cTddqXl5dvMVztK517IDvYuVTZXpmkOlEKMaNCMEAwHQYDVR0OBBYEFLuw3qFYM4iapIqZ3r6966/ayySr"
    + "MA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMDA2gAMGUCMQCD6cHEFl4aXTQY2e3v9GwOAEZL"
    + "uN+yRhHFD/3meoyhpmvOwgPUnPWTxnS4at+qIxUCMG1mihDK1A3UT82NQz60imOlM27jbdoXt2QfyFMm+YhidDkLF1vLUagM"
    + "6BgD56KyKA=="

  /// SHA-256 of the DER, lower-case hex:
  /// 63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79.
  package static let sha256 = "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179"

  /// Apple's marker OID on the WWDR intermediate that issues App Store signing certificates.
  package static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"
  /// Apple's marker OID on the App Store receipt-signing leaf certificate.
  package static let receiptSigningOID = "1.2.840.113635.100.6.11.1"
}
