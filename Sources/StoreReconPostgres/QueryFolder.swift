import Foundation
package import StoreReconAppRows

/// Finds the SQL files of a database run: `--queries DIR`, else `queries/` in the current directory
/// (file by file), else the copies built into the binary.
package enum QueryFolder {
  /// The contract queries.
  ///
  /// With `directory`, each `<directory>/<contract>.sql` must exist (66 otherwise). Without it,
  /// `queries/<contract>.sql` relative to the current directory is used where it exists and the
  /// built-in text where not. An optional contract (credits, notifications) is read where its file
  /// exists, else only when `optional` names it (the config does), from the built-in text where no
  /// folder was given.
  package static func contractQueries(
    directory: String?, optional: Set<ContractQuery.Contract> = []
  ) throws(DatabaseError) -> [ContractQuery] {
    var queries: [ContractQuery] = []
    for contract in ContractQuery.Contract.allCases {
      if contract.isOptional && !optional.contains(contract)
        && !exists(named: contract.rawValue, directory: directory)
      {
        continue
      }
      let file = try sql(named: contract.rawValue, directory: directory)
      queries.append(
        ContractQuery(contract: contract, text: file.text, displayName: file.display, builtIn: file.builtIn))
    }
    return queries
  }

  /// `schema.sql`, found the same way.
  package static func schema(directory: String?) throws(DatabaseError) -> (text: String, displayName: String)
  {
    let file = try sql(named: "schema", directory: directory)
    return (file.text, file.display)
  }

  /// Whether `<directory>/<name>.sql` (or `queries/<name>.sql` without a folder) exists.
  static func exists(named name: String, directory: String?) -> Bool {
    guard let directory else { return FileManager.default.fileExists(atPath: "queries/" + name + ".sql") }
    let path = directory.hasSuffix("/") ? directory + name + ".sql" : directory + "/" + name + ".sql"
    return FileManager.default.fileExists(atPath: path)
  }

  static func sql(named name: String, directory: String?) throws(DatabaseError) -> (
    text: String, display: String, builtIn: Bool
  ) {
    let fileName = name + ".sql"
    if let directory {
      let display = directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory),
        isDirectory.boolValue
      else {
        throw DatabaseError(.missingInput, "queries folder \(directory) does not exist")
      }
      return (try read(display), display, false)
    }
    let display = "queries/" + fileName
    if FileManager.default.fileExists(atPath: display) {
      return (try read(display), display, false)
    }
    guard let text = EmbeddedQueries.text(name) else {
      throw DatabaseError(.software, "no built-in query named \(name)")
    }
    return (text, display, true)
  }

  private static func read(_ path: String) throws(DatabaseError) -> String {
    guard FileManager.default.fileExists(atPath: path) else {
      throw DatabaseError(.missingInput, "query file \(path) does not exist")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw DatabaseError(.missingInput, "query file \(path) cannot be read")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw DatabaseError(.config, "query file \(path) is not UTF-8 text")
    }
    return text
  }
}
