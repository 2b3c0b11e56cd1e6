/// The `--help` texts. They describe what the code does; keep them true when it changes.
enum Help {
  static let usage = "storerecon <command> [options]"
  static let runUsage = "storerecon run --config FILE [--date YYYY-MM-DD] [--out DIR] [--quiet]"
  static let demoUsage = "storerecon demo [--out DIR] [--users N] [--seed N] [--date YYYY-MM-DD] [--quiet]"

  static let overview = """
    OVERVIEW: Reconcile what the App Store and Google Play charged with who has access.

    storerecon reads the stores' exports and the app's entitlement rows, and reports orphaned charges
    (money taken, nothing granted), free entitlements (access no paid period backs), duplicate claims,
    and revenue per store, product, currency and day, and reads out price experiments — all money in
    exact integer minor units.

    USAGE: \(usage)

    COMMANDS:
      run        Reconcile the inputs named by a config file as of a date.
      demo       Write a seeded sample world with planted problems, reconcile it, and check the result.
      help       Show help for a command: storerecon help run

    OPTIONS:
      --version  Show the version.
      -h, --help Show help information.

    EXIT CODES:
      0   success              64  wrong arguments       65  an input file was malformed (reports still written)
      66  missing input file   74  cannot write reports  75  database/SMTP unreachable   78  invalid config
      70  internal error (a bug; please report it)
      1   (demo only) the findings do not match the planted truth

    """

  static let run = """
    OVERVIEW: Reconcile the inputs named by a config file as of the end of a date.

    USAGE: \(runUsage)

    OPTIONS:
      --config FILE       JSON config; paths inside it are relative to the config file's folder.
      --date YYYY-MM-DD   Report date; the as-of instant T is the end of that day in the config's
                          time zone (default: yesterday in that time zone).
      --out DIR           Output folder (default: reports/<date>).
      --quiet             No progress lines on stderr.
      -h, --help          Show help information.

    Writes findings.csv, revenue.csv, counts.csv, grants.csv, rejects/<input>.csv, reconciliation.xlsx
    (the same tables as an Excel workbook with a Summary sheet) and manifest.json; with price
    experiments in the config also experiment_arms.csv, experiment_lineage.csv and price-tests.xlsx
    (a sheet per experiment with the arm table, the readout in words and a chart).
    Every input row is accepted or written to its rejects file with file, line and reason; the
    manifest states read = accepted + rejected per input. A malformed file is reported and the run
    goes on without it (exit 65). A missing input file exits 66, an invalid config 78.

    """

  static let demo = """
    OVERVIEW: Write a realistic, seeded sample world and reconcile it — no server needed.

    USAGE: \(demoUsage)

    OPTIONS:
      --out DIR           Folder for the world and its reports (default: demo).
      --users N           Users in the world (default: 5000).
      --seed N            Random seed; the same seed gives byte-identical files (default: 42).
      --date YYYY-MM-DD   The world's report date (default: 2026-11-29).
      --quiet             No progress lines on stderr.
      -h, --help          Show help information.

    The world holds App Store JSON Lines, Google Play sales reports, subscriptionsv2 and voided
    purchases, the app's entitlements, credentials, assignments and goodwill as CSV, a config, and
    truth/planted_findings.csv: the problems planted on purpose. The demo runs the job on it and
    compares the findings with the planted truth (exit 1 if they differ). Its price experiment has a
    known effect; truth/experiment_truth.csv holds what the generator made per arm.

    """

  static func command(_ name: String) -> String? {
    switch name {
    case "run": return run
    case "demo": return demo
    default: return nil
    }
  }
}
