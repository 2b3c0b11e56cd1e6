package import StoreReconCore

/// A failure of the SQLite run history: the file, the operation and what SQLite said, in one line a
/// person can act on, and the kind of failure the shell maps to an exit code.
package struct SQLiteError: Error, CustomStringConvertible, Sendable {
  /// The history file.
  package var file: String
  /// What the store was doing (`opening`, `recording the run of 2026-11-29`, …).
  package var operation: String
  /// SQLite's primary result code (`SQLITE_BUSY` = 5, …).
  package var code: Int32
  /// SQLite's message.
  package var reason: String

  /// A failure of `operation` on `file`.
  package init(file: String, operation: String, code: Int32, reason: String) {
    (self.file, self.operation, self.code, self.reason) = (file, operation, code, reason)
  }

  /// The failure SQLite reported for `operation` on `file`.
  init(file: String, operation: String, _ failure: SQLite.Failure) {
    self.init(file: file, operation: operation, code: failure.code, reason: failure.message)
  }

  /// The kind of failure: another run's lock is worth retrying (75); a file that is not a history
  /// database is a configuration matter (78); a folder or file that cannot be written is I/O (74).
  package var kind: FailureKind {
    switch code {
    case SQLite.Code.busy, SQLite.Code.locked: return .unavailable
    case SQLite.Code.notADatabase, SQLite.Code.corrupt: return .config
    case SQLite.Code.cannotOpen, SQLite.Code.readOnly, SQLite.Code.ioError, SQLite.Code.full: return .ioError
    case SQLite.Code.permission, SQLite.Code.auth: return .noPermission
    default: return .software
    }
  }

  /// What to do about it, where there is something to say.
  private var advice: String {
    switch code {
    case SQLite.Code.busy, SQLite.Code.locked:
      return "; another storerecon run holds the history's lock: try again when it has finished"
    case SQLite.Code.notADatabase, SQLite.Code.corrupt:
      return
        "; the file is not a storerecon run history: move it away or point the config's history key elsewhere"
    case SQLite.Code.cannotOpen, SQLite.Code.readOnly:
      return "; the history file and its folder must exist and be writable (or run with --no-history)"
    default: return ""
    }
  }

  package var description: String { "run history \(file): \(operation): \(reason)\(advice)" }

  /// The failure as the run history protocol throws it.
  package var historyError: HistoryStoreError { HistoryStoreError(kind, description) }
}
