import Foundation
import Testing

@testable import StoreReconPostgres

/// The live PostgreSQL the tests use: the one the environment names (`.ci/run` and
/// `scripts/test-postgres.sh` set it), else a throwaway cluster this test process starts once, when the
/// PostgreSQL server binaries are installed (scripts/postgres-cluster.sh, `pg_cluster_for_process`; it is
/// stopped and removed after the process ends). Tests needing it are disabled, with a message, when neither
/// is there.
enum TestDatabase {
  /// The `STORERECON_TEST_PG_*` settings: the environment's, or the started cluster's (empty: none).
  static let settings: [String: String] = {
    let environment = ProcessInfo.processInfo.environment
    if environment["STORERECON_TEST_PG_URL"] != nil { return environment }
    return startCluster()
  }()

  /// Superuser over the Unix socket (trust).
  static var url: String? { settings["STORERECON_TEST_PG_URL"] }
  /// A role that must give a password, over TCP.
  static var passwordURL: String? { settings["STORERECON_TEST_PG_PASSWORD_URL"] }
  /// That role's password.
  static var password: String? { settings["STORERECON_TEST_PG_PASSWORD"] }

  /// The package's scripts/postgres-cluster.sh.
  static let clusterScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/postgres-cluster.sh").path

  /// Whether PostgreSQL's server binaries are installed where the script looks.
  static var serverInstalled: Bool {
    if let bin = ProcessInfo.processInfo.environment["STORERECON_PG_BIN"] {
      return FileManager.default.isExecutableFile(atPath: bin + "/initdb")
    }
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
    return versions.contains {
      FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb")
    }
  }

  /// Starts a throwaway cluster for this process (nothing when the server is not installed or does not
  /// start: the tests then skip with ``skipMessage``).
  static func startCluster() -> [String: String] {
    guard serverInstalled, FileManager.default.fileExists(atPath: clusterScript) else { return [:] }
    // The settings come through a file, not a pipe: a process another test starts at the same moment
    // could inherit the pipe's write end and keep it open for minutes.
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("storerecon-pg-\(getpid()).env")
    defer { try? FileManager.default.removeItem(at: file) }
    // Glibc's system(), not Foundation's Process: a Process launched inside this lazy initializer left
    // Foundation's child reaping for the whole test process stuck (waitUntilExit never returned). system()
    // waits for its own child only; the cluster and its watchdog run on, detached.
    let command =
      "bash -c '. \"$0\"; pg_cluster_for_process \"$1\" >\"$2.part\" && mv \"$2.part\" \"$2\"' "
      + [clusterScript, String(getpid()), file.path].map(shellQuoted).joined(separator: " ")
      + " </dev/null >/dev/null 2>&1"
    guard system(command) == 0, let data = FileManager.default.contents(atPath: file.path) else { return [:] }
    var settings: [String: String] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      guard let equals = line.firstIndex(of: "=") else { continue }
      settings[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    return settings
  }

  static var available: Bool { url != nil }
  static var passwordAvailable: Bool { passwordURL != nil && password != nil }

  static let passwordSkipMessage: Comment =
    "no password-protected PostgreSQL role configured: set STORERECON_TEST_PG_PASSWORD_URL and STORERECON_TEST_PG_PASSWORD"

  static let skipMessage: Comment =
    "no PostgreSQL: install the server (apt-get install postgresql) for a throwaway cluster, or set STORERECON_TEST_PG_URL"

  /// `text` as one single-quoted shell word.
  static func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// `url` with its database replaced by `name`.
  static func url(database name: String) -> String {
    guard let base = url, var components = URLComponents(string: base) else { return "" }
    components.path = "/" + name
    return components.string ?? base
  }

  /// A new, empty database; dropped by ``drop(_:)``.
  static func create() throws -> String {
    let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
    let admin = try PostgresConnection.connect(url ?? "")
    try admin.execute("CREATE DATABASE \(name)")
    return String(name)
  }

  /// Drops a database made by ``create()``, ending its sessions.
  static func drop(_ name: String) {
    guard let admin = try? PostgresConnection.connect(url ?? "") else { return }
    _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
  }
}
