import Foundation
package import StoreReconCore
package import StoreReconAppRows

/// `storerecon db load`: loads the app's CSV rows (as the demo writes them) into the reference
/// schema with `COPY … FROM STDIN`, replacing each table's rows in one transaction.
///
/// Every row goes through the same reader as a run's CSV input: a row the contract rejects is not
/// loaded and is reported with its file, line and reason, so the database holds exactly the rows a
/// CSV run accepts.
package enum DatabaseLoader {
  /// What was loaded into one table.
  package struct TableLoad: Sendable {
    /// The contract (= the table's name).
    package var contract: ContractQuery.Contract
    /// The CSV file as named on the command line.
    package var file: String
    /// Rows read, accepted and rejected by the contract's reader.
    package var counts: InputCounts
    /// Rows the table holds now.
    package var stored: Int
    /// The rejected rows.
    package var rejects: [Reject]
  }

  /// The CSV files `directory` holds, per contract (`entitlements.csv`, …).
  static func files(in directory: String) -> [(ContractQuery.Contract, String)] {
    let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    return ContractQuery.Contract.allCases.compactMap { contract in
      let path = base + "/" + contract.rawValue + ".csv"
      return FileManager.default.fileExists(atPath: path) ? (contract, path) : nil
    }
  }

  /// Loads every contract file `directory` holds into its table; tables without a file are left as
  /// they are. All or nothing: one transaction.
  package static func load(directory: String, connection: PostgresConnection) throws(DatabaseError)
    -> [TableLoad]
  {
    let files = files(in: directory)
    guard !files.isEmpty else {
      throw DatabaseError(
        .missingInput,
        "\(directory) holds none of entitlements.csv, credentials.csv, assignments.csv, goodwill.csv")
    }
    for (contract, _) in files {
      let exists: Bool
      do {
        exists =
          try connection.execute("SELECT to_regclass($1) IS NOT NULL", [contract.rawValue]).value(0, 0) == "t"
      } catch {
        throw error.databaseError("checking table \(contract.rawValue)")
      }
      guard exists else {
        throw DatabaseError(
          .config,
          "table \(contract.rawValue) does not exist in \(connection.description): run storerecon db init first"
        )
      }
    }
    var loads: [TableLoad] = []
    do {
      try connection.transaction {
        for (index, (contract, path)) in files.enumerated() {
          loads.append(try load(contract, path: path, fileIndex: Int32(index), connection: connection))
        }
      }
    } catch let error as DatabaseError {
      throw error
    } catch {
      throw DatabaseError(.software, "loading \(directory): \(error)")
    }
    for load in loads {
      _ = try? connection.execute("ANALYZE \(load.contract.rawValue)")
    }
    return loads
  }

  private static func load(
    _ contract: ContractQuery.Contract, path: String, fileIndex: Int32, connection: PostgresConnection
  ) throws(DatabaseError) -> TableLoad {
    let table = contract.rawValue
    let copy: PostgresCopyIn
    do {
      try connection.execute("TRUNCATE \(table)")
      copy = try connection.copyIn(contract.copyInStatement)
      try copy.sendCSVRow(contract.columns)
    } catch {
      throw error.databaseError("loading \(path) into \(table)")
    }
    let rejects = RejectList()
    var sendError: PostgresError?
    var lines: [Int32] = []
    func send(_ fields: [String?], _ origin: Origin) {
      guard sendError == nil else { return }
      lines.append(origin.line)
      do {
        try copy.sendCSVRow(fields)
      } catch {
        sendError = error
      }
    }
    let counts: InputCounts
    do {
      switch contract {
      case .entitlements:
        counts = try EntitlementCSVReader().read(
          path: path, displayName: path, fileIndex: fileIndex, rejects: rejects
        ) {
          send(
            [
              $0.entitlementId, $0.userId, $0.productId, $0.source.rawValue, $0.storeKey, $0.status.rawValue,
              $0.startsAt?.description, $0.expiresAt?.description, $0.updatedAt?.description,
            ], $0.origin)
        }
      case .credentials:
        counts = try CredentialCSVReader().read(
          path: path, displayName: path, fileIndex: fileIndex, rejects: rejects
        ) {
          send(
            [
              $0.store.rawValue, $0.storeKey, $0.userId, $0.linkedStoreKey, $0.orderId,
              $0.claimedAt?.description,
            ],
            $0.origin)
        }
      case .assignments:
        counts = try AssignmentCSVReader().read(
          path: path, displayName: path, fileIndex: fileIndex, rejects: rejects
        ) {
          send([$0.userId, $0.experimentId, $0.armId, $0.assignedAt.description], $0.origin)
        }
      case .goodwill: counts = try loadGoodwill(path, fileIndex: fileIndex, rejects: rejects, send: send)
      case .credits: counts = try loadCredits(path, fileIndex: fileIndex, rejects: rejects, send: send)
      case .notifications:
        counts = try loadNotifications(path, fileIndex: fileIndex, rejects: rejects, send: send)
      }
    } catch {
      copy.abort("the file could not be read")
      throw DatabaseError(.dataError, "\(error.description); nothing was loaded")
    }
    let stored: Int
    do throws(PostgresError) {
      if let sendError { throw sendError }
      stored = try copy.finish()
    } catch {
      copy.abort("failed")
      let message = fileLines(error.description, table: table, path: path, lines: lines)
      throw DatabaseError(
        error.kind(queryCode: .config), "loading \(path) into \(table): \(message); nothing was loaded")
    }
    return TableLoad(contract: contract, file: path, counts: counts, stored: stored, rejects: rejects.rejects)
  }

  /// Rewrites the server's `COPY <table>, line N` (a line of the data sent) as the CSV file's line.
  static func fileLines(_ message: String, table: String, path: String, lines: [Int32]) -> String {
    let marker = "COPY \(table), line "
    guard let range = message.range(of: marker) else { return message }
    let digits = message[range.upperBound...].prefix { $0.isNumber }
    guard let sent = Int(digits), sent >= 2, sent - 2 < lines.count else { return message }
    let fileLine = lines[sent - 2]
    let end = message.index(range.upperBound, offsetBy: digits.count)
    return String(message[..<range.lowerBound]) + "\(path) line \(fileLine)" + String(message[end...])
  }
}
