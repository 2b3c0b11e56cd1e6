// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "storerecon",
  products: [
    .executable(name: "storerecon", targets: ["storerecon"]),
    .library(name: "StoreRecon", targets: ["StoreRecon"]),
  ],
  targets: [
    .systemLibrary(
      name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]),
    .systemLibrary(
      name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]),
    .systemLibrary(
      name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq",
      providers: [.apt(["libpq-dev"])]),
    .systemLibrary(
      name: "CXLSXWriter", path: "Sources/CXLSXWriter", pkgConfig: "xlsxwriter",
      providers: [.apt(["libxlsxwriter-dev"])]),
    .systemLibrary(
      name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"])]),
    .target(
      name: "StoreRecon", dependencies: ["CZlib", "CCrypto", "CXLSXWriter", "CLibPQ", "CCurl"],
      // Release builds skip the run-time exclusivity checks on class properties (the compile-time checks
      // stay): in the importers' and the ledger's inner loops they cost up to a third of the time.
      swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
    .executableTarget(name: "storerecon", dependencies: ["StoreRecon"]),
    // Importer throughput alone (MB/s per format): `swift run -c release storerecon-bench FILE…`.
    .executableTarget(name: "storerecon-bench", dependencies: ["StoreRecon"]),
    .testTarget(
      name: "StoreReconTests", dependencies: ["StoreRecon", "storerecon"], exclude: ["Mail/smtp_sink.py"]),
  ]
)

for target in package.targets where target.type != .system {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
  target.swiftSettings = settings
}
