import Foundation
import Testing
import StoreReconTestSupport

/// `storerecon db` and the database options of `run` as a user types them; no server needed.
@Suite(.serialized) struct DatabaseCommandLineTests {
  @Test func helpTellsTheDatabaseStory() throws {
    let db = try Binary.run(["db", "--help"])
    #expect(db.status == 0)
    #expect(db.stdout.contains("db init --database URI"))
    #expect(db.stdout.contains("db load --database URI DIR"))
    #expect(try Binary.run(["help", "db"]).stdout == db.stdout)
    let run = try Binary.run(["run", "--help"])
    for option in [
      "--database URI", "--queries DIR", "--no-history", "--lock-timeout SECONDS", "changes.csv",
    ] {
      #expect(run.stdout.contains(option), "\(option)")
    }
    let overview = try Binary.run(["--help"])
    #expect(overview.stdout.contains("77  the database refused the login"))
    #expect(overview.stdout.contains("db         Create the reference PostgreSQL schema"))
  }

  @Test func usageErrorsExit64() throws {
    for args in [
      ["db"], ["db", "frob", "--database", "x"], ["db", "init"], ["db", "load", "--database", "x"],
      ["db", "load", "--database", "x", "a", "b"], ["db", "init", "--database", "x", "extra"],
      ["run", "--config", "x.json", "--lock-timeout", "-1"],
      ["run", "--config", "x.json", "--lock-timeout", "soon"],
    ] {
      let out = try Binary.run(args)
      #expect(out.status == 64, "\(args): \(out.stderr)")
      #expect(out.stderr.hasPrefix("Error: "), "\(args)")
      #expect(out.stderr.contains("See 'storerecon --help' for more information."), "\(args)")
    }
  }

  @Test func loadingAMissingFolderIs66() throws {
    let out = try Binary.run(["db", "load", "--database", "postgresql://127.0.0.1:1/x", "/no/such/folder"])
    #expect(out.status == 66)
    #expect(out.stderr == "storerecon: error: folder /no/such/folder does not exist\n")
  }

  @Test func configWithoutEntitlementsOrDatabaseIs78() throws {
    let dir = try TempDir()
    let config = try dir.write("storerecon.json", #"{"app": {}}"#)
    let out = try Binary.run(["run", "--config", config, "--date", "2026-11-29", "--out", dir.path("out")])
    #expect(out.status == 78)
    #expect(out.stderr.contains("app.entitlements is required (or app.database / --database)"))
  }

  @Test func configDatabaseWithAPasswordIsRefused() throws {
    let dir = try TempDir()
    let config = try dir.write(
      "storerecon.json", #"{"app": {"database": "host=127.0.0.1 port=1 user=u password=hunter2 dbname=x"}}"#)
    let out = try Binary.run(["run", "--config", config, "--date", "2026-11-29", "--out", dir.path("out")])
    #expect(out.status == 78)
    #expect(out.stderr.split(separator: "\n").count == 1)
    #expect(out.stderr.contains("carries a password"))
    #expect(!out.stderr.contains("hunter2"))
  }
}
