package import StoreReconPlatform
package import StoreReconWorkbooks
package import StoreReconRun

extension RunAdapters {
  /// The full binary's adapters: PostgreSQL, the SQLite and PostgreSQL history stores, libxlsxwriter,
  /// the e-mail through libcurl.
  package static func shell(workbookOptions: ReconciliationWorkbook.Options = .init()) -> RunAdapters {
    RunAdapters(
      database: PostgresAppRows(), history: HistoryStores(),
      workbooks: XLSXWorkbooks(options: workbookOptions), mail: SMTPMail())
  }
}

extension ReconciliationRun {
  /// Runs the job with the full binary's adapters (``RunAdapters/shell(workbookOptions:)``).
  package static func execute(
    _ request: Request, progress: any ProgressSink, workbookOptions: ReconciliationWorkbook.Options = .init()
  ) throws(RunError) -> RunResult {
    try execute(request, adapters: .shell(workbookOptions: workbookOptions), progress: progress)
  }

  /// A whole run within `--memory` (in passes where needed) with the full binary's adapters.
  package static func executeWithinMemory(_ request: Request, progress: any ProgressSink) throws(RunError)
    -> RunResult
  {
    try executeWithinMemory(request, adapters: .shell(), progress: progress)
  }

  /// `storerecon keymap` with the full binary's adapters.
  package static func writeKeymap(_ request: Request, to path: String, progress: any ProgressSink)
    throws(RunError) -> String
  {
    try writeKeymap(request, to: path, adapters: .shell(), progress: progress)
  }
}
