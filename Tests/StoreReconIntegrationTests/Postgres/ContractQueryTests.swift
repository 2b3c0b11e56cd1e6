import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPostgres
import StoreReconAppRows

/// The contract queries: columns checked by name, statement trimmed for COPY, built-in copies equal the files.
struct ContractQueryTests {
  static func query(_ contract: ContractQuery.Contract, _ text: String = "SELECT 1;\n") -> ContractQuery {
    ContractQuery(contract: contract, text: text, displayName: "q/\(contract.rawValue).sql", builtIn: false)
  }

  @Test func exactColumnsInAnyOrderAndCaseMatch() {
    let q = Self.query(.assignments)
    #expect(q.contractViolation(columns: ["assigned_at", "USER_ID", "arm_id", "experiment_id"]) == nil)
  }

  @Test func missingExtraAndRepeatedColumnsAreNamed() {
    let q = Self.query(.assignments)
    #expect(
      q.contractViolation(columns: ["user_id", "experiment_id", "assigned_at", "note", "user_id"])
        == "q/assignments.sql does not return the assignments contract's columns: missing arm_id; extra note; repeated user_id"
    )
  }

  @Test func statementLosesTrailingSemicolonsForCopy() {
    let q = Self.query(.goodwill, "-- comment\nSELECT grant_id FROM goodwill -- trailing\n;\n\n")
    #expect(q.statement == "-- comment\nSELECT grant_id FROM goodwill -- trailing")
    #expect(q.copyStatement.hasPrefix("COPY (\n-- comment"))
    #expect(q.copyStatement.hasSuffix("-- trailing\n) TO STDOUT WITH (FORMAT csv, HEADER true)"))
  }

  @Test func builtInQueriesEqualTheFilesInQueries() throws {
    let folder = Binary.packageRoot.appendingPathComponent("queries")
    for name in ["entitlements", "credentials", "assignments", "goodwill", "credits", "schema"] {
      let file = try String(contentsOf: folder.appendingPathComponent(name + ".sql"), encoding: .utf8)
      #expect(
        EmbeddedQueries.text(name) == file, "queries/\(name).sql differs: run scripts/gen-embedded-queries.py"
      )
    }
  }

  @Test func everyContractQuerySelectsItsColumns() {
    for contract in ContractQuery.Contract.allCases {
      let text = EmbeddedQueries.text(contract.rawValue) ?? ""
      let select = text.split(separator: "\n").first { $0.hasPrefix("SELECT ") } ?? ""
      let columns = select.dropFirst("SELECT ".count).split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      #expect(columns == contract.columns, "\(contract)")
      #expect(text.contains("ORDER BY"), "\(contract) must be ordered deterministically")
    }
  }

  @Test func explicitQueriesFolderMustHoldEveryFile() throws {
    let dir = try TempDir()
    try dir.write("entitlements.sql", "SELECT 1")
    #expect(throws: DatabaseError.self) { _ = try QueryFolder.contractQueries(directory: dir.url.path) }
    do {
      _ = try QueryFolder.contractQueries(directory: dir.url.path)
    } catch {
      #expect(error.kind == .missingInput)
      #expect(error.message.contains("credentials.sql"))
    }
  }

  @Test func creditsAreOptionalUnlessAskedFor() throws {
    let dir = try TempDir()
    for name in ["entitlements", "credentials", "assignments", "goodwill"] {
      try dir.write(name + ".sql", "SELECT 1")
    }
    // No credits.sql and no app.credits: the run reads no credits.
    let four = try QueryFolder.contractQueries(directory: dir.url.path)
    #expect(four.map(\.contract) == [.entitlements, .credentials, .assignments, .goodwill])
    // Asked for (app.credits) but missing from an explicit folder: 66 naming the file.
    do {
      _ = try QueryFolder.contractQueries(directory: dir.url.path, optional: [.credits])
      Issue.record("a missing credits.sql was accepted")
    } catch {
      #expect(error.kind == .missingInput)
      #expect(error.message.contains("credits.sql"))
    }
    // The file there: read whether asked for or not.
    try dir.write("credits.sql", "SELECT credit_id FROM credits")
    let five = try QueryFolder.contractQueries(directory: dir.url.path)
    #expect(five.map(\.contract).last == .credits)
    #expect(five.last?.text == "SELECT credit_id FROM credits")
    #expect(five.last?.builtIn == false)
  }

  @Test func creditsContractNamesItsColumns() {
    let q = Self.query(.credits)
    #expect(q.contract.role == "app.credits")
    #expect(q.contract.isOptional)
    #expect(
      q.contractViolation(columns: [
        "credit_id", "user_id", "store", "transaction_id", "product_id", "quantity", "credited_at",
      ])
        == "q/credits.sql does not return the credits contract's columns: missing reversed_at")
  }
}
