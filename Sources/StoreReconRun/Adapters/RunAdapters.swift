/// The adapters a run needs that `storerecon-worker` does not link: the app rows' database
/// (PostgreSQL), the run history stores (SQLite, PostgreSQL), the workbooks (libxlsxwriter) and the
/// e-mail (libcurl, librsvg). The shell builds them and hands them to
/// ``ReconciliationRun/command(_:adapters:progress:)`` as values, so every phase of a run is in this target and none of those libraries is linked into it.
package struct RunAdapters {
  /// Opens the database when the app's rows come from one (`app.database`, `--database`).
  package var database: any AppRowDatabaseOpener
  /// Opens the run history where the config keeps it (docs/history.md).
  package var history: any RunHistoryOpener
  /// Renders the workbooks (reconciliation.xlsx, price-tests.xlsx).
  package var workbooks: any WorkbookRenderer
  /// Sends the e-mail of a finished run (`run --mail`, `storerecon mail`).
  package var mail: any MailTransport

  /// Adapters from their parts.
  package init(
    database: any AppRowDatabaseOpener, history: any RunHistoryOpener, workbooks: any WorkbookRenderer,
    mail: any MailTransport
  ) {
    self.database = database
    self.history = history
    self.workbooks = workbooks
    self.mail = mail
  }
}
