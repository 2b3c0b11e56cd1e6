/// The demo world's test certificate chain for App Store JWS lines (made once by
/// scripts/make-test-chain.sh): `CN=StoreRecon Test Root` → `CN=StoreRecon Test Intermediate` (with
/// Apple's WWDR marker OID) → `CN=StoreRecon Test Leaf` (with Apple's receipt-signing OID), EC P-256,
/// valid 2020-01-01 to 2045-01-01. The leaf's private scalar is here, published: this chain proves
/// nothing except to a run that names its root as `appStore.testRootCertificate` (the demo's config
/// does, and every such run says so). Real App Store lines chain to Apple Root CA - G3.
enum DemoTestChain {
  /// The root, PEM: written beside the demo's config as ``rootPath``.
  static let rootPEM = """
    -----BEGIN CERTIFICATE-----
    MIIBozCCAUqgAwIBAgICEAAwCgYIKoZIzj0EAwIwOTEdMBsGA1UEAwwUU3RvcmVS
    ZWNvbiBUZXN0IFJvb3QxGDAWBgNVBAoMD1N0b3JlUmVjb24gVGVzdDAeFw0yMDAx
    MDEwMDAwMDBaFw00NTAxMDEwMDAwMDBaMDkxHTAbBgNVBAMMFFN0b3JlUmVjb24g
    VGVzdCBSb290MRgwFgYDVQQKDA9TdG9yZVJlY29uIFRlc3QwWTATBgcqhkjOPQIB
    BggqhkjOPQMBBwNCAAQp7jIMuL1FZaGlpafOtGMSTNC2Rsp9IQMNUFh2O1doQUdQ
    Qmx76JxxcBp0b3FAAb5jSbG44FeSHIuzXJ2Chb7no0IwQDAPBgNVHRMBAf8EBTAD
    AQH/MA4GA1UdDwEB/wQEAwIBBjAdBgNVHQ4EFgQUyDegZeF5XbNcPQ67XlPdRxlF
    yhAwCgYIKoZIzj0EAwIDRwAwRAIgHU9it3laiY0anrcRJ3doKk+A+ZUo8xl02Ewi
    6/Dpr3oCIFx8jPgCE6nXrRS2cGGLJa5wkRewONVuCgaDZyg+qZRj
    -----END CERTIFICATE-----
    """

  /// Where the demo world keeps the root (relative to the world folder).
  static let rootPath = "test-root.pem"

  /// The `x5c` certificates, DER as standard base64: leaf, intermediate, root.
  static let x5c: [String] = [
    "MIIB3DCCAYKgAwIBAgICEAIwCgYIKoZIzj0EAwIwQTElMCMGA1UEAwwcU3RvcmVSZWNvbiBUZXN0IEludGVybWVkaWF0"
      + "ZTEYMBYGA1UECgwPU3RvcmVSZWNvbiBUZXN0MB4XDTIwMDEwMTAwMDAwMFoXDTQ1MDEwMTAwMDAwMFowOTEdMBsGA1UE"
      + "AwwUU3RvcmVSZWNvbiBUZXN0IExlYWYxGDAWBgNVBAoMD1N0b3JlUmVjb24gVGVzdDBZMBMGByqGSM49AgEGCCqGSM49"
      + "AwEHA0IABC0MVr0QNeHRH3hBmY5Ic/c5ictfl5utK6P06uSpPuKtjmV44pdmuCqevFGgT6Uu4j/1Fm/tQyCD6nCxGyVN"
      + "skijcjBwMAwGA1UdEwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMB0GA1UdDgQWBBRWSVlSmv0zTOFXhOYPngppvj/IaTAf"
      + "BgNVHSMEGDAWgBSBJtMHmDZKr5I4xFYbLxZyb4LsHTAQBgoqhkiG92NkBgsBBAIFADAKBggqhkjOPQQDAgNIADBFAiA9"
      + "XHeVhcUbKLBLGQk120mGzdcKGS7WQDYAbhtrSwYH8AIhAIvheNuccaYu9DnIeEs4g0StuXS/V4VB0+Ecu9BeeaAR",
    "MIIB4TCCAYigAwIBAgICEAEwCgYIKoZIzj0EAwIwOTEdMBsGA1UEAwwUU3RvcmVSZWNvbiBUZXN0IFJvb3QxGDAWBgNV"
      + "BAoMD1N0b3JlUmVjb24gVGVzdDAeFw0yMDAxMDEwMDAwMDBaFw00NTAxMDEwMDAwMDBaMEExJTAjBgNVBAMMHFN0b3Jl"
      + "UmVjb24gVGVzdCBJbnRlcm1lZGlhdGUxGDAWBgNVBAoMD1N0b3JlUmVjb24gVGVzdDBZMBMGByqGSM49AgEGCCqGSM49"
      + "AwEHA0IABEBls/zk+QSUPpjFCKuLs2UBJG+6yDz5qwI4PBi+9ydtgaK4Vm3Dtf93ZlPBjYGs2+PxKLlc/OIQLG/sMQ5q"
      + "h8+jeDB2MBIGA1UdEwEB/wQIMAYBAf8CAQAwDgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBSBJtMHmDZKr5I4xFYbLxZy"
      + "b4LsHTAfBgNVHSMEGDAWgBTIN6Bl4Xlds1w9DrteU91HGUXKEDAQBgoqhkiG92NkBgIBBAIFADAKBggqhkjOPQQDAgNH"
      + "ADBEAiBrwI7BmF2GKyW4OzxofqFKuHUe2gRhXPBK5X3mtTiKLwIgTApYAdnUVbpFDblSastSjZ2LCtAs1OSeHsjzztQt"
      + "gxM=",
    "MIIBozCCAUqgAwIBAgICEAAwCgYIKoZIzj0EAwIwOTEdMBsGA1UEAwwUU3RvcmVSZWNvbiBUZXN0IFJvb3QxGDAWBgNV"
      + "BAoMD1N0b3JlUmVjb24gVGVzdDAeFw0yMDAxMDEwMDAwMDBaFw00NTAxMDEwMDAwMDBaMDkxHTAbBgNVBAMMFFN0b3Jl"
      + "UmVjb24gVGVzdCBSb290MRgwFgYDVQQKDA9TdG9yZVJlY29uIFRlc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQp"
      + "7jIMuL1FZaGlpafOtGMSTNC2Rsp9IQMNUFh2O1doQUdQQmx76JxxcBp0b3FAAb5jSbG44FeSHIuzXJ2Chb7no0IwQDAP"
      + "BgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIBBjAdBgNVHQ4EFgQUyDegZeF5XbNcPQ67XlPdRxlFyhAwCgYIKoZI"
      + "zj0EAwIDRwAwRAIgHU9it3laiY0anrcRJ3doKk+A+ZUo8xl02Ewi6/Dpr3oCIFx8jPgCE6nXrRS2cGGLJa5wkRewONVu"
      + "CgaDZyg+qZRj",
  ]

  /// The leaf's private scalar (32 bytes, hex): signs the demo's JWS lines.
  static let leafScalar = "581af1daadd672686489f9100a7c7c2b29c1e41b1e92fc4dffb09b59296a7216"
}
