import Foundation
import Testing

@testable import StoreReconPostgres
@testable import StoreReconCLI
@testable import StoreReconRun

/// Connecting: each way it fails is one line with the category that picks the exit code.
@Suite struct PostgresConnectErrorTests {
  /// A `.pgpass` file holding `password` for every host, port, database and user.
  static func passfile(_ password: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)")
      .path
    try Data("*:*:*:*:\(password)\n".utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o600)
    return path
  }

  static func with(_ url: String, passfile: String) -> String {
    url + (url.contains("?") ? "&" : "?") + "passfile=" + passfile
  }

  @Test func unreachablePortIsUnavailableOnOneLine() {
    do {
      _ = try PostgresConnection.connect("postgresql://nobody@127.0.0.1:1/none?connect_timeout=5")
      Issue.record("expected an error")
    } catch {
      #expect(error.category == .unavailable)
      #expect(RunError(error.databaseError("")).code == .unavailable)
      #expect(error.sqlState == nil)
      #expect(error.message.contains("127.0.0.1"))
      #expect(!error.message.contains("\n"))
    }
  }

  @Test func passwordInTheConnectionStringIsRefused() {
    for text in ["postgresql://u:secret@127.0.0.1:1/db", "host=127.0.0.1 port=1 password=secret"] {
      do {
        _ = try PostgresConnection.connect(text)
        Issue.record("expected an error for \(text)")
      } catch {
        #expect(error.category == .connectionString)
        #expect(RunError(error.databaseError("")).code == .config)
        #expect(error.message.contains("~/.pgpass"))
        #expect(!error.message.contains("secret"))
      }
    }
  }

  @Test func malformedConnectionStringIsAConfigError() {
    do {
      _ = try PostgresConnection.connect("postgresql://host:notaport/db?bogus_option=1")
      Issue.record("expected an error")
    } catch {
      #expect(error.category == .connectionString)
      #expect(error.message.hasPrefix("invalid database connection string"))
    }
  }

  @Test(.enabled(if: TestDatabase.passwordAvailable, TestDatabase.passwordSkipMessage))
  func wrongPasswordIsAPermissionErrorWithItsSQLState() throws {
    let file = try Self.passfile("wrong-password")
    defer { try? FileManager.default.removeItem(atPath: file) }
    do {
      _ = try PostgresConnection.connect(Self.with(TestDatabase.passwordURL ?? "", passfile: file))
      Issue.record("expected an error")
    } catch {
      #expect(error.sqlState == "28P01")
      #expect(error.category == .permission)
      #expect(RunError(error.databaseError("")).code == .noPermission)
      #expect(error.message.contains("password authentication failed"))
      #expect(!error.message.contains("LOCATION"))
      #expect(!error.message.contains("\n"))
    }
  }

  @Test(.enabled(if: TestDatabase.passwordAvailable, TestDatabase.passwordSkipMessage))
  func missingPasswordSaysWhereToPutIt() throws {
    let file = try Self.passfile("")
    defer { try? FileManager.default.removeItem(atPath: file) }
    guard ProcessInfo.processInfo.environment["PGPASSWORD"] == nil else { return }
    do {
      _ = try PostgresConnection.connect(Self.with(TestDatabase.passwordURL ?? "", passfile: "/nonexistent"))
      Issue.record("expected an error")
    } catch {
      #expect(error.category == .permission)
      #expect(error.message.contains("PGPASSWORD"))
    }
  }

  /// libpq ignores a password file group or others can open; the error says so, and how to fix it
  /// (the rule mail.passwordFile follows, issue 32).
  @Test(.enabled(if: TestDatabase.passwordAvailable, TestDatabase.passwordSkipMessage))
  func anOpenPassfileIsNamedWithItsMode() throws {
    let file = try Self.passfile(TestDatabase.password ?? "")
    defer { try? FileManager.default.removeItem(atPath: file) }
    guard ProcessInfo.processInfo.environment["PGPASSWORD"] == nil else { return }
    chmod(file, 0o644)
    do {
      _ = try PostgresConnection.connect(Self.with(TestDatabase.passwordURL ?? "", passfile: file))
      Issue.record("expected an error")
    } catch {
      #expect(error.category == .permission)
      #expect(
        error.message.hasSuffix(
          "asks for a password and libpq ignored the password file \(file): it is open to group or others "
            + "(mode 0644); run chmod 600 \(file)"), "\(error.message)")
    }
    chmod(file, 0o600)
    _ = try PostgresConnection.connect(Self.with(TestDatabase.passwordURL ?? "", passfile: file))
  }

  @Test(.enabled(if: TestDatabase.passwordAvailable, TestDatabase.passwordSkipMessage))
  func rightPasswordFromAPassfileConnects() throws {
    let file = try Self.passfile(TestDatabase.password ?? "")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let db = try PostgresConnection.connect(Self.with(TestDatabase.passwordURL ?? "", passfile: file))
    #expect(try db.execute("SELECT current_user").value(0, 0) == "storerecon_pw")
    #expect(!db.description.contains(TestDatabase.password ?? "-"))
  }

  @Test(.enabled(if: TestDatabase.available, TestDatabase.skipMessage))
  func unknownDatabaseIsAConfigError() throws {
    do {
      _ = try PostgresConnection.connect(TestDatabase.url(database: "no_such_database_here"))
      Issue.record("expected an error")
    } catch {
      #expect(error.sqlState == "3D000")
      #expect(RunError(error.databaseError("")).code == .config)
      #expect(error.message.contains("no_such_database_here"))
    }
  }
}
