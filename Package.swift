// swift-tools-version:6.2
import PackageDescription

// The targets are the layers (docs/architecture.md): each may import only the targets below it, and the
// tidy test (Tests/StoreReconTidyTests) fails on an import a target's row does not allow.
//
//   StoreReconPlatform   Glibc, Dispatch, Synchronization, CCrypto — nothing of the project
//   StoreReconCore       Platform — money, model, ledger, rules, readout, history: no I/O
//   StoreReconIO         Core, Platform, CZlib — bytes, scanners, the read schedule
//   StoreReconImporters  Core, IO — store formats     │ beside each other,
//   StoreReconAppRows    Core, IO — the app's rows    │ neither sees the other
//   StoreReconPostgres   Core, IO, AppRows, CLibPQ
//   StoreReconSQLite     Core, CSQLite — the run history without a server
//   StoreReconReports    Core, Platform — CSV, the list of report files, summaries
//   StoreReconWorkbooks  Core, Reports, CXLSXWriter — the XLSX workbooks
//   StoreReconSettings   Core, Platform — the config reader, the mail and fetch settings
//   StoreReconMail       Core, Reports, Settings, CCurl, CRsvg
//   StoreReconFetch      Core, IO, Settings, CCurl — the stores' APIs over HTTPS (`storerecon fetch`)
//   StoreReconDemo       Core — the seeded demo world
//   StoreReconRun        Core, IO, Importers, AppRows, Reports, Settings — every phase of a run; what
//                        needs libpq, libsqlite3, libxlsxwriter or libcurl comes in as an adapter value
//   StoreReconCLI        everything — arguments, the adapters, exit codes

// The targets whose inner loops run over every input byte, every ledger record and every credited
// charge. Release builds skip the run-time exclusivity checks on class properties there (the
// compile-time checks stay). Measured with callgrind on a 30,000-user run (5.38 G instructions with
// these settings): without them the checks cost 112 M instructions in Core, 73 M in Importers, 14 M in
// Reports and 11 M in IO (+6.2 % in all), and under 0.1 M in Platform, AppRows and the CLI, which
// therefore keep them.
let hotLoops: [SwiftSetting] = [
  .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

let package = Package(
  name: "storerecon",
  products: [
    .executable(name: "storerecon", targets: ["storerecon"]),
    .executable(name: "storerecon-bench", targets: ["storerecon-bench"]),
    .executable(name: "storerecon-worker", targets: ["storerecon-worker"]),
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
    // The run history without a server (docs/history.md).
    .systemLibrary(
      name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]),
    // The e-mail's pictures as PNG (librsvg renders the summary's SVG; cairo encodes it).
    .systemLibrary(
      name: "CRsvg", path: "Sources/CRsvg", pkgConfig: "librsvg-2.0",
      providers: [.apt(["librsvg2-dev"])]),

    .target(name: "StoreReconPlatform", dependencies: ["CCrypto"]),
    .target(name: "StoreReconCore", dependencies: ["StoreReconPlatform"], swiftSettings: hotLoops),
    .target(
      name: "StoreReconIO", dependencies: ["StoreReconCore", "StoreReconPlatform", "CZlib"],
      swiftSettings: hotLoops),
    .target(
      name: "StoreReconImporters", dependencies: ["StoreReconCore", "StoreReconIO", "StoreReconPlatform"],
      swiftSettings: hotLoops),
    .target(
      name: "StoreReconAppRows", dependencies: ["StoreReconCore", "StoreReconIO", "StoreReconPlatform"]),
    .target(
      name: "StoreReconPostgres",
      dependencies: ["StoreReconCore", "StoreReconIO", "StoreReconAppRows", "StoreReconPlatform", "CLibPQ"]),
    // The run history in an embedded SQLite file (docs/history.md).
    .target(name: "StoreReconSQLite", dependencies: ["StoreReconCore", "CSQLite"]),
    .target(
      name: "StoreReconReports", dependencies: ["StoreReconCore", "StoreReconPlatform"],
      swiftSettings: hotLoops),
    .target(
      name: "StoreReconWorkbooks",
      dependencies: ["StoreReconCore", "StoreReconPlatform", "StoreReconReports", "CXLSXWriter"],
      swiftSettings: hotLoops),
    .target(name: "StoreReconSettings", dependencies: ["StoreReconCore", "StoreReconPlatform"]),
    .target(
      name: "StoreReconMail",
      dependencies: [
        "StoreReconCore", "StoreReconReports", "StoreReconSettings", "StoreReconPlatform", "CCurl", "CRsvg",
      ]),
    .target(
      name: "StoreReconFetch",
      dependencies: ["StoreReconCore", "StoreReconIO", "StoreReconSettings", "StoreReconPlatform", "CCurl"]),
    .target(name: "StoreReconDemo", dependencies: ["StoreReconCore", "StoreReconPlatform"]),
    // One run's read, reconcile and partial, without PostgreSQL, the workbooks, mail or fetch: what
    // `storerecon-worker` links (docs/partitions.md#the-worker-protocol).
    .target(
      name: "StoreReconRun",
      dependencies: [
        "StoreReconPlatform", "StoreReconCore", "StoreReconIO", "StoreReconImporters", "StoreReconAppRows",
        "StoreReconReports", "StoreReconSettings",
      ]),
    .target(
      name: "StoreReconCLI",
      dependencies: [
        "StoreReconPlatform", "StoreReconCore", "StoreReconIO", "StoreReconImporters", "StoreReconAppRows",
        "StoreReconRun", "StoreReconPostgres", "StoreReconSQLite", "StoreReconReports", "StoreReconWorkbooks",
        "StoreReconSettings", "StoreReconMail",
        "StoreReconFetch", "StoreReconDemo",
      ]),
    .executableTarget(name: "storerecon", dependencies: ["StoreReconCLI", "StoreReconPlatform"]),
    // The worker alone (docs/partitions.md#the-worker-protocol): no PostgreSQL, workbooks, mail or fetch.
    .executableTarget(name: "storerecon-worker", dependencies: ["StoreReconRun", "StoreReconPlatform"]),
    // Importer throughput alone (MB/s per format): `swift run -c release storerecon-bench FILE…`.
    .executableTarget(
      name: "storerecon-bench", dependencies: ["StoreReconPlatform", "StoreReconCore", "StoreReconImporters"]),

    // Helpers shared by several test targets (temporary folders, the binary runner, fixtures, the demo
    // world a run reads): a regular target, so no test target copies another's. It uses only the package
    // API of the targets below (no `@testable`), so it builds in release too.
    .target(
      name: "StoreReconTestSupport",
      dependencies: ["StoreReconCore", "StoreReconIO", "StoreReconImporters", "StoreReconDemo"]),

    // A test target per layer: each depends on the target it tests, the targets below it that its files
    // import, and the test-support library — so Core's tests build without libpq, libcurl or libxlsxwriter.
    .testTarget(name: "StoreReconPlatformTests", dependencies: ["StoreReconPlatform"]),
    .testTarget(
      name: "StoreReconCoreTests",
      dependencies: ["StoreReconCore", "StoreReconPlatform", "StoreReconTestSupport"]),
    .testTarget(
      name: "StoreReconIOTests",
      dependencies: ["StoreReconIO", "StoreReconCore", "StoreReconPlatform", "StoreReconTestSupport"]),
    .testTarget(
      name: "StoreReconImportersTests",
      dependencies: [
        "StoreReconImporters", "StoreReconIO", "StoreReconCore", "StoreReconPlatform",
        "StoreReconTestSupport",
      ]),
    .testTarget(
      name: "StoreReconAppRowsTests",
      dependencies: ["StoreReconAppRows", "StoreReconIO", "StoreReconCore", "StoreReconTestSupport"]),
    .testTarget(
      name: "StoreReconReportsTests",
      dependencies: [
        "StoreReconReports", "StoreReconWorkbooks", "StoreReconCore", "StoreReconPlatform",
        "StoreReconTestSupport",
      ]),
    .testTarget(
      name: "StoreReconWorkbooksTests",
      dependencies: [
        "StoreReconWorkbooks", "StoreReconReports", "StoreReconCore", "StoreReconPlatform",
        "StoreReconTestSupport",
      ]),
    .testTarget(
      name: "StoreReconSettingsTests",
      dependencies: ["StoreReconSettings", "StoreReconCore", "StoreReconTestSupport"]),
    .testTarget(
      name: "StoreReconRunTests",
      dependencies: [
        "StoreReconRun", "StoreReconReports", "StoreReconSettings", "StoreReconCore", "StoreReconPlatform",
        "StoreReconTestSupport",
      ]),
    .testTarget(
      name: "StoreReconMailTests",
      dependencies: ["StoreReconMail", "StoreReconCore", "StoreReconTestSupport"]),
    .testTarget(
      name: "StoreReconSQLiteTests",
      dependencies: ["StoreReconSQLite", "StoreReconCore", "StoreReconTestSupport"]),
    .testTarget(name: "StoreReconDemoTests", dependencies: ["StoreReconDemo", "StoreReconCore"]),
    .testTarget(
      name: "StoreReconFetchTests",
      dependencies: [
        "StoreReconFetch", "StoreReconSettings", "StoreReconCore", "StoreReconPlatform",
        "StoreReconTestSupport",
      ]),
    // The command line as a user runs it, end-to-end demo runs, and the tests that need targets beside
    // each other (a demo world read by the importers). The `storerecon` dependency makes SwiftPM build the
    // binary these tests start (TestSupport's `Binary` finds it next to the test bundle).
    .testTarget(
      name: "StoreReconCLITests",
      dependencies: [
        "StoreReconCLI", "StoreReconRun", "StoreReconPlatform", "StoreReconCore", "StoreReconIO",
        "StoreReconImporters",
        "StoreReconAppRows", "StoreReconReports", "StoreReconWorkbooks", "StoreReconDemo", "StoreReconSQLite",
        "StoreReconTestSupport",
        "storerecon",
      ]),
    // Everything that talks to a real PostgreSQL or SMTP server, with the rest of the database adapter's
    // tests; those that need a server skip, with a message, without one (STORERECON_TEST_PG_URL; python3
    // with aiosmtpd for Mail/smtp_sink.py).
    .testTarget(
      name: "StoreReconIntegrationTests",
      dependencies: [
        "StoreReconPostgres", "StoreReconSQLite", "StoreReconMail", "StoreReconFetch", "StoreReconSettings",
        "StoreReconCLI",
        "StoreReconRun", "StoreReconPlatform", "StoreReconCore", "StoreReconIO", "StoreReconAppRows",
        "StoreReconDemo", "StoreReconTestSupport", "storerecon",
      ],
      exclude: [
        "Mail/smtp_sink.py", "Fetch/apple_api_server.py", "Fetch/google_api_server.py",
        "Fetch/stripe_api_server.py", "Fetch/loopback_tls.py",
      ]),
    // The layering, the fence around pointer code, function length and citations, checked on the sources.
    .testTarget(
      name: "StoreReconTidyTests", path: "Tests/StoreReconTidyTests",
      exclude: [
        "pointer-files.txt", "long-functions.txt", "platform-names.txt", "unsafe-entry.txt",
        "make-allowlists.sh",
      ]),
  ]
)

// Strict memory safety (SE-0458) on the targets with almost no unsafe constructs (5 uses, each marked
// `unsafe`): the compiler flags any new one. The other targets had 23 (AppRows) to 525 (IO) such uses
// when tried.
let memorySafeTargets: Set<String> = ["StoreReconDemo", "StoreReconCLI"]

for target in package.targets where target.type != .system {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
  // Cross-module optimisation for release builds. Measured: it does not inline or specialise `package`
  // declarations across targets (neither does `package @inlinable`); the hot calls that cross a target
  // are `public @inlinable` instead (docs/architecture.md, "Access across targets").
  settings.append(
    .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release)))
  if memorySafeTargets.contains(target.name) { settings.append(.strictMemorySafety()) }
  target.swiftSettings = settings
}
