import Foundation
import Testing

@testable import StoreReconPostgres

/// The live PostgreSQL the tests use, from the environment `.ci/run` and `scripts/test-postgres.sh`
/// set (scripts/postgres-cluster.sh). Tests needing it are disabled, with this message, when it is absent.
enum TestDatabase {
  /// Superuser over the Unix socket (trust).
  static var url: String? { ProcessInfo.processInfo.environment["STORERECON_TEST_PG_URL"] }
  /// A role that must give a password, over TCP.
  static var passwordURL: String? { ProcessInfo.processInfo.environment["STORERECON_TEST_PG_PASSWORD_URL"] }
  /// That role's password.
  static var password: String? { ProcessInfo.processInfo.environment["STORERECON_TEST_PG_PASSWORD"] }

  static var available: Bool { url != nil }
  static var passwordAvailable: Bool { passwordURL != nil && password != nil }

  static let passwordSkipMessage: Comment =
    "no password-protected PostgreSQL role configured: set STORERECON_TEST_PG_PASSWORD_URL and STORERECON_TEST_PG_PASSWORD"

  static let skipMessage: Comment =
    "no PostgreSQL configured: set STORERECON_TEST_PG_URL (scripts/test-postgres.sh starts a throwaway cluster)"

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
