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
    MIIBpTCCAUqgAwIBAgICEAAwCgYIKoZIzj0EAwIwOTEdMBsGA1UEAwwUU3RvcmVS
    ZWNvbiBUZXN0IFJvb3QxGDAWBgNVBAoMD1N0b3JlUmVjb24gVGVzdDAeFw0yMDAx
    MDEwMDAwMDBaFw00NTAxMDEwMDAwMDBaMDkxHTAbBgNVBAMMFFN0b3JlUmVjb24g
    VGVzdCBSb290MRgwFgYDVQQKDA9TdG9yZVJlY29uIFRlc3QwWTATBgcqhkjOPQIB
    BggqhkjOPQMBBwNCAAR4BVSCYWTQxVzxXX5N0OAaNFqKiUwvSlp9LWnvdim4DcbP
    CgbobIg2vVYGgac8hVGNxFPM2IooZ23zATW1wH9Po0IwQDAPBgNVHRMBAf8EBTAD
    AQH/MA4GA1UdDwEB/wQEAwIBBjAdBgNVHQ4EFgQUu+KCko4ERoWHVMLnYCRacYoe
    S0MwCgYIKoZIzj0EAwIDSQAwRgIhAL4fvcCAidolqZAh/hQPO4iVewvnjbHURqJa
    azab4SJyAiEAxtALuqTFfDpV8ZVWH3wOGgLFinrSR95Im9VShmSDD94=
    -----END CERTIFICATE-----
    """

  /// Where the demo world keeps the root (relative to the world folder).
  static let rootPath = "test-root.pem"

  /// The `x5c` certificates, DER as standard base64: leaf, intermediate, root.
  static let x5c: [String] = [
    "MIIB3DCCAYKgAwIBAgICEAIwCgYIKoZIzj0EAwIwQTElMCMGA1UEAwwcU3RvcmVSZWNvbiBUZXN0IEludGVybWVkaWF0"
      + "ZTEYMBYGA1UECgwPU3RvcmVSZWNvbiBUZXN0MB4XDTIwMDEwMTAwMDAwMFoXDTQ1MDEwMTAwMDAwMFowOTEdMBsGA1UE"
      + "AwwUU3RvcmVSZWNvbiBUZXN0IExlYWYxGDAWBgNVBAoMD1N0b3JlUmVjb24gVGVzdDBZMBMGByqGSM49AgEGCCqGSM49"
      + "AwEHA0IABNqHVBl58rNbMSEWvgRvpsC9WPdmjVmuK5AEMRGSENYi5D94WLQI9qsa5PMOY+8Vsy4Dysg+tn5hGB+f2+w7"
      + "ArijcjBwMAwGA1UdEwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMB0GA1UdDgQWBBT7SBuSsYWDuQ2V5I3+nQVjGL2nRDAf"
      + "BgNVHSMEGDAWgBQ13oS0oKJRg97/5ZzxKRKtpkv25zAQBgoqhkiG92NkBgsBBAIFADAKBggqhkjOPQQDAgNIADBFAiB5"
      + "yJ+JU8Rj6QkA+flm/C//0k7Uuh4YoXa1ftDB4Jr95QIhAIH2nAjoeing/Bu2U8Gb1osardIAOgJ0P70o5ZasmiWY",
    "MIIB4jCCAYigAwIBAgICEAEwCgYIKoZIzj0EAwIwOTEdMBsGA1UEAwwUU3RvcmVSZWNvbiBUZXN0IFJvb3QxGDAWBgNV"
      + "BAoMD1N0b3JlUmVjb24gVGVzdDAeFw0yMDAxMDEwMDAwMDBaFw00NTAxMDEwMDAwMDBaMEExJTAjBgNVBAMMHFN0b3Jl"
      + "UmVjb24gVGVzdCBJbnRlcm1lZGlhdGUxGDAWBgNVBAoMD1N0b3JlUmVjb24gVGVzdDBZMBMGByqGSM49AgEGCCqGSM49"
      + "AwEHA0IABHJDzF94EQlvnc3gLfM5JZGqDI9uDXKcCki6ussIOlhY6UPOU04onaw/CgPdgPT5Vj23MsYQD+1CT3dSPWJ+"
      + "0R6jeDB2MBIGA1UdEwEB/wQIMAYBAf8CAQAwDgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBQ13oS0oKJRg97/5ZzxKRKt"
      + "pkv25zAfBgNVHSMEGDAWgBS74oKSjgRGhYdUwudgJFpxih5LQzAQBgoqhkiG92NkBgIBBAIFADAKBggqhkjOPQQDAgNI"
      + "ADBFAiA6NyqiB9byMza72kZ1O6Mc5JDIb36BJMRhcOAxxz7xNgIhAKf0eN+ahqL5PZkHzkLyJ7I64amwslvx2nY8QRiR"
      + "eV+K",
    "MIIBpTCCAUqgAwIBAgICEAAwCgYIKoZIzj0EAwIwOTEdMBsGA1UEAwwUU3RvcmVSZWNvbiBUZXN0IFJvb3QxGDAWBgNV"
      + "BAoMD1N0b3JlUmVjb24gVGVzdDAeFw0yMDAxMDEwMDAwMDBaFw00NTAxMDEwMDAwMDBaMDkxHTAbBgNVBAMMFFN0b3Jl"
      + "UmVjb24gVGVzdCBSb290MRgwFgYDVQQKDA9TdG9yZVJlY29uIFRlc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAR4"
      + "BVSCYWTQxVzxXX5N0OAaNFqKiUwvSlp9LWnvdim4DcbPCgbobIg2vVYGgac8hVGNxFPM2IooZ23zATW1wH9Po0IwQDAP"
      + "BgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIBBjAdBgNVHQ4EFgQUu+KCko4ERoWHVMLnYCRacYoeS0MwCgYIKoZI"
      + "zj0EAwIDSQAwRgIhAL4fvcCAidolqZAh/hQPO4iVewvnjbHURqJaazab4SJyAiEAxtALuqTFfDpV8ZVWH3wOGgLFinrS"
      + "R95Im9VShmSDD94=",
  ]

  /// The leaf's private scalar (32 bytes, hex): signs the demo's JWS lines.
  static let leafScalar = "d0aa6a9e95a6185b5fcf41355d030f08f26095d56d65b39bfee74d2bbdc79b91"
}
