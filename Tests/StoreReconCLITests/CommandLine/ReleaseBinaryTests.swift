import Foundation
import StoreReconTestSupport
import Testing

/// The release binary of scripts/release-binary.sh (`--static-swift-stdlib`; `.ci/run` builds it before
/// the tests): it must need nothing of the Swift toolchain, only Debian's runtime packages that the
/// Dockerfile installs (deploy/docker/runtime-packages.txt), and run with no toolchain path set.
enum ReleaseBinary {
  static let path = Binary.packageRoot.appendingPathComponent(".build/static/storerecon").path
  static var built: Bool { FileManager.default.isExecutableFile(atPath: path) }
  static let skipMessage: Comment =
    "no release binary at .build/static/storerecon: scripts/release-binary.sh builds it (.ci/run does)"
}

@Suite(.enabled(if: ReleaseBinary.built, ReleaseBinary.skipMessage))
struct ReleaseBinaryTests {
  static let path = ReleaseBinary.path

  /// Runs `executable` with `arguments` and an environment of `environment` only.
  static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
    -> (
      status: Int32, output: String
    )
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "release-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("out")
    FileManager.default.createFile(atPath: file.path, contents: nil)
    let handle = try FileHandle(forWritingTo: file)
    process.standardOutput = handle
    process.standardError = handle
    process.currentDirectoryURL = directory
    try process.run()
    process.waitUntilExit()
    try handle.close()
    return (process.terminationStatus, String(decoding: try Data(contentsOf: file), as: UTF8.self))
  }

  /// The shared libraries `ldd` resolves for the binary: (soname, resolved path).
  static func libraries() throws -> [(name: String, path: String)] {
    let ldd = try run("/usr/bin/ldd", [path])
    #expect(ldd.status == 0, "\(ldd.output)")
    return ldd.output.split(separator: "\n").compactMap { line in
      let parts = line.split(separator: " ", omittingEmptySubsequences: true)
      guard parts.count >= 3, parts[1] == "=>" else { return nil }
      return (String(parts[0].trimmingCharacters(in: .whitespaces)), String(parts[2]))
    }
  }

  @Test func lddNamesNothingOfTheToolchain() throws {
    let libraries = try Self.libraries()
    // libpq, libxlsxwriter and libcurl at least: an empty or truncated list would pass the check below.
    let names = Set(libraries.map(\.name))
    for needed in ["libpq.so.5", "libxlsxwriter.so.4", "libcurl.so.4", "libcrypto.so.3", "libz.so.1"] {
      #expect(names.contains(needed), "ldd lacks \(needed): \(names.sorted())")
    }
    for library in libraries {
      #expect(!library.name.hasPrefix("libswift"), "\(library.name) => \(library.path)")
      #expect(!library.name.contains("Foundation"), "\(library.name) => \(library.path)")
      #expect(!library.name.hasPrefix("libdispatch"), "\(library.name) => \(library.path)")
      #expect(!library.name.hasPrefix("libBlocksRuntime"), "\(library.name) => \(library.path)")
      #expect(!library.path.hasPrefix("/opt/swift"), "\(library.name) => \(library.path)")
      #expect(library.path != "not", "\(library.name) is not found")
    }
  }

  @Test func theLibrariesComeFromTheImagesPackageList() throws {
    let listed = try String(
      contentsOf: Binary.packageRoot.appendingPathComponent("deploy/docker/runtime-packages.txt"),
      encoding: .utf8
    )
    .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    // The packages the binary's direct libraries belong to (dpkg -S), each one the list installs
    // (their own dependencies come with them).
    let direct = [
      "libpq.so.5", "libxlsxwriter.so.4", "libcurl.so.4", "libssl.so.3", "libz.so.1", "libstdc++.so.6",
      "librsvg-2.so.2",
    ]
    let libraries = try Self.libraries()
    for name in direct {
      guard let library = libraries.first(where: { $0.name == name }) else {
        Issue.record("ldd lacks \(name)")
        continue
      }
      // Debian's merged /usr: dpkg knows /usr/lib/… where ldd may say /lib/….
      let paths = [library.path] + (library.path.hasPrefix("/lib") ? ["/usr" + library.path] : [])
      let owners = try paths.map {
        try Self.run("/usr/bin/dpkg", ["-S", $0], environment: ["PATH": "/usr/bin:/bin"])
      }
      guard let owner = owners.first(where: { $0.status == 0 }) else {
        Issue.record("no Debian package holds \(library.path)")
        continue
      }
      let package = owner.output.split(separator: ":").first.map(String.init) ?? ""
      #expect(listed.contains(package), "\(name) comes from \(package), which runtime-packages.txt lacks")
    }
  }

  @Test func runsWithoutTheToolchainOnThePath() throws {
    let environment = ["PATH": "/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path]
    let version = try Self.run(Self.path, ["--version"], environment: environment)
    #expect(version.status == 0, "\(version.output)")
    #expect(version.output.hasPrefix("storerecon "), "\(version.output)")
    let help = try Self.run(Self.path, ["help", "bogus"], environment: environment)
    #expect(help.status == 64, "\(help.output)")
  }
}
