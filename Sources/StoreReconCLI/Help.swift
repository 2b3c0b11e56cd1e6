import StoreReconCore
package import StoreReconRun

/// The `--help` texts. They describe what the code does; keep them true when it changes.
enum Help {
  static let usage = "storerecon <command> [options]"
  static let runUsage = """
    storerecon run --config FILE [--date YYYY-MM-DD] [--out DIR] [--database URI] [--queries DIR] \
    [--no-history] [--lock-timeout SECONDS] [--mail [--dry-run] [--mail-incomplete]] [--require-complete] \
    [--allow-missing] [--allow-damaged] [--memory SIZE] [--from-scratch] [--partition I/N --keymap FILE] [--quiet]
    """
  static let mergeUsage = """
    storerecon merge --config FILE --date YYYY-MM-DD --out DIR [--database URI] [--queries DIR] \
    [--no-history] [--mail [--dry-run] [--mail-incomplete]] [--require-complete] [--allow-missing] \
    [--allow-damaged] [--quiet] PART_0 … PART_N-1
    """
  static let keymapUsage =
    "storerecon keymap --config FILE [--date YYYY-MM-DD] --out FILE [--database URI] [--queries DIR] [--quiet]"
  static let workerUsage = WorkerCommand.usage
  static let databaseUsage = "storerecon db init --database URI [--queries DIR] | db load --database URI DIR"
  static let mailUsage = "storerecon mail --config FILE [--date YYYY-MM-DD | --out DIR] [--dry-run] [--quiet]"
  static let settleUsage =
    "storerecon settle --config FILE [--date YYYY-MM-DD | --out DIR] (KEY… | --all) --reason TEXT --by NAME [--until YYYY-MM-DD] [--max-amount-minor N]"
  static let fetchUsage = "storerecon fetch [apple | SOURCE…] --config FILE [--date YYYY-MM-DD] [--quiet]"
  static let demoUsage =
    "storerecon demo [--out DIR] [--users N] [--seed N] [--date YYYY-MM-DD] [--realistic [--all-jws]] [--no-notification-log] [--one-day] [--quiet]"

  static let overview = """
    OVERVIEW: Reconcile what the App Store, Google Play and Stripe charged with who has access.

    storerecon reads the stores' exports (Stripe's for the web) and the app's entitlement rows, and
    reports orphaned charges (money taken, nothing granted), free entitlements (access no paid period
    backs), duplicate claims, and revenue per store, product, currency and day, and reads out price
    experiments — all money in exact integer minor units.

    USAGE: \(usage)

    COMMANDS:
      run        Reconcile the inputs named by a config file as of a date.
      demo       Write a seeded sample world with planted problems, reconcile it, and check the result.
      db         Create the reference PostgreSQL schema (db init) or load CSV app rows into it (db load).
      mail       E-mail the summary and workbooks of a finished run (run --mail runs, then mails).
      settle     Accept cases of a finished run as known differences (appends to decisions.csv).
      keymap     Write the lineage keymap a partitioned run needs (docs/partitions.md).
      merge      Turn the partials of a partitioned run (run --partition I/N) into the reports.
      worker     Read one partition's lines from an engine (Spark) on stdin, write its partial to stdout.
      fetch      Download what is new from the stores' APIs into the config's fetch folder.
      help       Show help for a command: storerecon help run

    OPTIONS:
      -V, --version  Show the version.
      -h, --help     Show help information.
    Short flags wherever a command has the long one: -c --config, -d --date, -o --out, -q --quiet.
    A mistyped command or option is refused (exit 64) with the nearest one suggested.

    EXIT CODES:
      0   success (findings are not an error)
      3   findings exceed a configured threshold (config "alerts"; reports written, e-mail sent)
      4   the run is INCOMPLETE and --mail without --mail-incomplete, or --require-complete
          (reports written, nothing mailed)
      1   (demo only) the findings do not match the planted truth
      64  wrong arguments
      65  an input file was malformed (the reports were still written)
      66  a configured input file does not exist
      70  internal error (a bug; please report it)
      74  cannot write the reports
      75  database or SMTP server unreachable, or another run holds the date's lock (cron may retry)
      77  the database refused the login (wrong or missing password) or a privilege, or the
          SMTP server refused the user name or password
      78  invalid config, query file or database connection string

    """

  static let run = """
    OVERVIEW: Reconcile the inputs named by a config file as of the end of a date.

    USAGE: \(runUsage)

    OPTIONS:
      -c, --config FILE   JSON config; paths inside it are relative to the config file's folder.
      -d, --date YYYY-MM-DD
                          Report date; the as-of instant T is the end of that day in the config's
                          time zone (default: yesterday in that time zone).
      -o, --out DIR       Output folder (default: reports/<date>).
      --database URI      Read the app's rows from PostgreSQL instead of the config's CSV files
                          (overrides STORERECON_DATABASE_URL, which overrides the config's
                          app.database). A libpq URI or keyword string without a password: libpq
                          reads PG* variables, PGPASSWORD and ~/.pgpass.
      --queries DIR       Folder of entitlements.sql, credentials.sql, assignments.sql, goodwill.sql
                          and, where the app keeps credits, credits.sql (default: ./queries where a
                          file is there, else the built-in queries).
      --no-history        Do not read or record run history.
      --lock-timeout SECONDS
                          How long to wait for another run into the same --out and, with run
                          history, of the same date (default: 600; 0 = refuse at once).
      --mail              Then e-mail summary.txt/summary.html and every *.xlsx of the output folder
                          to the config's "mail" recipients over SMTP.
      --dry-run           With --mail: write the message to <out>/message.eml instead of sending it.
      --mail-incomplete   With --mail: mail an INCOMPLETE run too. Without it an INCOMPLETE run
                          writes its reports, mails nothing and exits 4.
      --require-complete  If an input does not cover the report date, exit 4 and do not mail, even
                          with --mail-incomplete (also without --mail).
      --allow-missing     A configured store export or optional app file that matches no file is
                          reported as INCOMPLETE instead of stopping the run with exit 66.
      --allow-damaged     Reconcile an input whose rejects pass the config's "damaged" limits
                          (default: more than 1 % of its rows, or 100,000) and report ATTENTION,
                          instead of stopping the run with exit 65.
      --memory SIZE       The working set the run may hold: bytes, or with K, M or G (powers of
                          1024; default: none, one pass). Where the inputs would need more (about
                          0.45 bytes per byte of input; a .gz or .zip counted 8 times its size),
                          the run reconciles its purchase lineages in passes, one partition after
                          another inside this process, spilling each pass's partial and charges to
                          a temporary folder ($TMPDIR, removed at the end), and merges them: the
                          same reports as one pass (docs/partitions.md#runs-in-passes). Passes do
                          not yet lower the peak of the read; see there.
      --from-scratch      Parse every input and verify every signature, as a first run does:
                          read no snapshot of the last run's parse (<report root>/parsed-inputs)
                          and no record of verified signatures; both are written anew
                          (docs/snapshot.md).
      --partition I/N     Run partition I (0 … N−1) of N: keep only the purchase lineages whose
                          key hashes to I (FNV-1a 64 mod N) and write <out>/partial.tsv and the
                          rejects files instead of the reports; `storerecon merge` adds the N
                          partials up. Needs --keymap; no run history, no mail (docs/partitions.md).
      --keymap FILE       The lineage keymap `storerecon keymap` wrote for these inputs.
      -q, --quiet         No progress lines on stderr.
      -h, --help          Show help information.

    Writes findings.csv, revenue.csv, revenue_recognition.csv (revenue recognised and deferred per
    month), charges.csv (every charge and refund behind them), revenue_recognition_import.csv,
    counts.csv, grants.csv, tieout.csv and tieout_orders.csv (the
    transaction feed against the stores' own Sales, Financial and earnings reports, when the config
    names them), duplicates.csv (store records read in two files, counted once), rejects/<input>.csv
    (written as found), summary.txt, summary.html, reconciliation.xlsx (the same tables
    as an Excel workbook with a Summary sheet) and manifest.json; with price experiments in the config also experiment_arms.csv,
    experiment_lineage.csv and price-tests.xlsx (a sheet per experiment with the arm table, the readout
    in words and a chart). Every input row is accepted or written to its rejects file with
    file, line and reason; the manifest states read = accepted + rejected (+ duplicates + superseded)
    per input. A malformed file (a damaged gzip or zip counts none of its rows) is reported and the
    run goes on without it (exit 65); an input with too many rejects (config "damaged") stops the run
    with exit 65 unless --allow-damaged; a file given under the wrong key (a Sales
    report as App Store transactions) stops the run before anything is read (exit 65), naming the key
    it belongs under. A missing input file, or one that is not a regular file (a pipe), exits 66; an
    invalid config, or an input outside the config's folder without "allowOutside": true, 78. The first line of summary.txt (and of stdout) is the status: ALERT (a threshold
    of the config's "alerts" is exceeded: exit 3) and/or INCOMPLETE (no App Store transaction after
    noon of the date, no Play sales row for the date, a file missing or unreadable: the rules that
    need a missing or unreadable file are not run, and the status names them); else ATTENTION
    (a new finding with money at stake — without run history every finding is new —, a tie-out
    difference, rejected rows above 0.1 % of an input, a damaged input allowed, an empty entitlements
    contract); else OK (nothing new needs a look); with its one-line reason.
    Mail failures: 75 the SMTP server cannot be reached or refused the message, 77 it refused the
    login, 78 the password variable or file is missing; the reports stay on disk. The folder is
    written beside --out and renamed into place whole; the report it replaces is kept as
    <out>.previous.

    Run history is kept in storerecon_runs and storerecon_findings: where the config's "history" says
    (a postgresql:// URI, or the path of a SQLite file); without it in the app rows' database when they
    come from one, else in the SQLite file history.sqlite beside the date folders (reports/history.sqlite
    for the default --out reports/<date>). findings.csv's since is the first report date that saw each
    finding, and changes.csv lists the findings new, still open and resolved since the previous run (the
    latest earlier date). Re-running a date replaces its history; a date earlier than the latest
    recorded one is a backfill, recorded but left out of the trends. Another run still holding the
    history's lock after --lock-timeout exits 75; a history file that is not a SQLite database 78, one
    whose folder cannot be written 74 (docs/history.md).

    With a database, each query's rows are streamed with COPY and read like a CSV file (a reject's
    line is the row's number in the result); a query whose columns differ from its contract exits 78.
    An unreachable database exits 75, a wrong or missing password 77. The queries run in one read-only transaction: a query that
    writes exits 78, one past its statement timeout 75.

    """

  static let merge = """
    OVERVIEW: Turn the N partials of a partitioned run into the reports of the whole run.

    USAGE: \(mergeUsage)

    Each PART is a folder `storerecon run --partition I/N` wrote (or its partial.tsv); all N
    partitions of one report date must be given, each once, in any order, cut by one keymap from the
    config and inputs the merge reads (partials of other inputs exit 65, nothing written). The merge
    reads the inputs again for their counts, rejects files and the stores' own reports (keeping no
    record), adds up the partials (findings, revenue, counts, the tie-out's feed side, duplicates,
    grants, the experiments' credited users and charges; a sum that overflows is exit 65) and writes
    every report `storerecon run` writes for the same config and date, byte for byte (manifest
    timings aside); the price-test bootstrap runs in the merge. Options as for run (-c --config,
    -d --date, -o --out, -q --quiet; --mail-incomplete to mail an INCOMPLETE merge, else it exits 4
    unmailed); a missing or malformed partial exits 65.

    """

  static let keymap = """
    OVERVIEW: Write the lineage keymap of a partitioned run.

    USAGE: \(keymapUsage)

    Reads every input of the config once and joins what belongs to one purchase lineage: a Play
    purchase and the token it upgraded from, a sales row's order and its purchase token, a user and
    the chains their credentials, entitlements and credits name. Writes FILE (`storerecon-keymap 1`,
    then one `node<TAB>lineage` line per node of a lineage of two or more) and prints its size. App
    rows come from the config's CSV files, or from PostgreSQL with --database (or the config's
    app.database) and --queries, as for run; no run history is read or written. Short flags: -c --config,
    -d --date, -o --out, -q --quiet.

    """

  static let worker = WorkerCommand.help

  static let database = """
    OVERVIEW: Set up the reference PostgreSQL schema and load CSV app rows into it.

    USAGE: \(databaseUsage)

    SUBCOMMANDS:
      init                Create the tables entitlements, credentials, assignments, goodwill,
                          credits (queries/schema.sql) and the run history tables storerecon_runs
                          and storerecon_findings. Idempotent.
      load DIR            Replace the rows of each table whose CSV file DIR holds (entitlements.csv,
                          credentials.csv, assignments.csv, goodwill.csv, credits.csv — as the demo
                          writes them in <demo>/app) using COPY, all in one transaction. Rows the
                          contract rejects are not loaded; each is named on stderr with its file,
                          line and reason.

    OPTIONS:
      --database URI      libpq URI or keyword string without a password (PGPASSWORD or ~/.pgpass
                          give it).
      --queries DIR       Where schema.sql is (default: ./queries, else the built-in schema).
      -h, --help          Show help information.

    Exit codes: 75 database unreachable, 77 login refused, 78 unknown database or missing
    tables (run db init first), 65 a file that cannot be loaded (nothing is loaded then).

    """

  static let demo = """
    OVERVIEW: Write a realistic, seeded sample world and reconcile it — no server needed.

    USAGE: \(demoUsage)

    OPTIONS:
      -o, --out DIR       Folder for the world and its reports (default: demo).
      --users N           Users in the world (default: 5000).
      --seed N            Random seed; the same seed gives byte-identical files (default: 42).
      -d, --date YYYY-MM-DD
                          The world's report date (default: 2026-11-29).
      --realistic         Render the world as real exports look: UUID and long opaque user ids,
                          every current App Store payload field in varying key order and spacing,
                          fuller subscriptionsv2 resources, mixed timestamp forms, history back to
                          mid-2022, several products per user (docs/benchmark.md). Same checks.
                          It has no notification log.
      --all-jws           With --realistic: every App Store line a compact JWS with its x5c chain,
                          in storerecon fetch's journal folder (exports/apple/transactions/: the
                          history, then the report date's file), and signatures required (the same
                          world otherwise). Every line costs a signature check on the first run.
      --no-notification-log
                          Write no notification log and no Apple notification history (the
                          benchmark's classic world: its DuckDB rival has no notification rules).
      --one-day           Run the report date alone. By default the demo runs the day before first,
                          on the same world, so the report date's run shows what is new, still open
                          and resolved against it (run history in <out>/reports, docs/cases.md).
      -q, --quiet         No progress lines on stderr.
      -h, --help          Show help information.

    The world holds App Store JSON Lines, Apple Summary Sales reports, Google Play sales and earnings
    reports, subscriptionsv2 and voided purchases, the app's entitlements, credentials, assignments,
    goodwill and credits as CSV, the server's notification log (app/notifications.csv) and Apple's
    notification history, a config, and truth/planted_findings.csv, truth/planted_tieout.csv
    and truth/planted_tieout_orders.csv: the problems and report differences planted on purpose. The
    demo runs the job on it and compares the findings and the tie-out with the planted truth (exit 1
    if they differ). Its price experiment has a known effect; truth/experiment_truth.csv holds what
    the generator made per arm.

    """

  static let settle = """
    OVERVIEW: Settle cases: accept known differences so they no longer raise the status.

    USAGE: \(settleUsage)

    ARGUMENTS:
      KEY…                  Case keys (the case_key column of cases.csv, the finding_key of findings.csv).

    OPTIONS:
      --config FILE         The run's config; the decisions go to its "decisions" file (default
                            decisions.csv beside the config).
      --date YYYY-MM-DD     The run folder reports/<date> whose cases.csv names the cases (default:
                            yesterday in the config's zone).
      --out DIR             That run folder instead.
      --all                 Every unsettled case (new, open, reopened) of that run.
      --reason TEXT         Why the cases are accepted (required).
      --by NAME             Who decided (required).
      --until YYYY-MM-DD    The last report date the decision holds for (default: until withdrawn).
      --max-amount-minor N  The largest amount at stake, in the case's minor units, it covers; a case
                            that grows past it is reopened.
      -h, --help            Show help information.

    Each key must be a case of that run (an unknown key is an error and nothing is written). One line
    per case is appended to decisions.csv (key, decision, reason, by, until, max_amount_minor), a file
    to review and edit like any other; delete a line to withdraw it. The next run shows the cases as
    settled, and the status is OK when nothing new and nothing unsettled is left (docs/cases.md).
    Exit codes: 0 written, 64 wrong arguments or an unknown key, 66 no cases.csv in the run folder, 74
    decisions.csv cannot be written, 78 an invalid config or decisions.csv.

    """

  static let mail = """
    OVERVIEW: E-mail the reports of a finished run.

    USAGE: \(mailUsage)

    OPTIONS:
      -c, --config FILE   JSON config with a "mail" section (from, to, smtp, username, passwordEnv or
                          passwordFile, subjectPrefix, tls, timeoutSeconds).
      -d, --date YYYY-MM-DD
                          Mail the run folder reports/<date> (default: yesterday in the config's zone).
      -o, --out DIR       Mail this run folder instead.
      --dry-run           Write the message to <folder>/message.eml instead of sending it.
      -q, --quiet         No progress lines on stderr.
      -h, --help          Show help information.

    The message is multipart: summary.txt and summary.html as alternatives (the HTML's pictures as
    PNG images beside it, for mail clients that drop SVG), and every *.xlsx file of the folder
    attached. The subject is the config's subjectPrefix and the first part of summary.txt's status
    line (OK, ATTENTION, ALERT, INCOMPLETE) with its one-line reason. The SMTP password comes from
    the environment variable named by passwordEnv or the file named by passwordFile, never from the
    command line or the config.
    A folder whose files do not match its manifest.json is not mailed.
    Exit codes: 0 sent, 65 the folder does not match its manifest, 66 no summary or no manifest.json in the folder, 75
    SMTP server unreachable or refused the message, 77 wrong user name or password, 78 invalid mail
    config or missing password.

    """

  static let fetch = """
    OVERVIEW: Download what is new from the stores' APIs into the config's "fetch.into" folder.

    USAGE: \(fetchUsage)

    SOURCES:
      apple               App Store Server API: transaction history of every original transaction id
                          the app's rows, the previous fetch and the notification history know; refund
                          history; notification history since the last fetch. App Store Connect API:
                          Summary Sales and Subscriber reports per day, Financial reports per month
                          (with fetch.apple.vendorNumber).
      google              Google Play Developer API: subscriptionsv2 of every purchase token the app's
                          rows, the previous fetch, the voided purchases, the linked purchases and the
                          sales reports' orders (Orders API) name; voided purchases since the last
                          fetch. Cloud Storage: the sales and earnings reports of fetch.google.bucket.
      stripe              Stripe API (pinned Stripe-Version): subscriptions, invoices, charges, refunds,
                          disputes, customers, prices and products — listed fetch.stripe.backfillDays
                          back the first time, then followed through the events; the balance report
                          (balance_change_from_activity.itemized.3) per month through report runs.
      (none named)        Every source the config's "fetch" object configures.

    OPTIONS:
      -c, --config FILE   JSON config with a "fetch" object (docs/fetch.md); its "app" entitlements and
                          credentials CSV files name the store keys to fetch.
      -d, --date YYYY-MM-DD
                          The last report day to fetch (default: yesterday in the config's zone).
      -q, --quiet         No progress lines on stderr.
      -h, --help          Show help information.

    Writes apple/transactions/NNNNNN-<UTC stamp>.jsonl (the new or changed signed transactions, one
    compact JWS a line: a new file each fetch, never rewritten), apple/notifications.jsonl,
    apple/reports/…, play/subscriptions.jsonl, play/voided.jsonl, play/sales/…, play/earnings/…,
    stripe/objects/NNNNNN-<UTC stamp>.jsonl and stripe/events/… (journals: the objects new or changed
    and the events first listed by each fetch, in a new file), stripe/reports/… and
    state.json, each file whole and atomically, only when it changed; a second fetch asks only for what
    is new. Keys are read from the files the config names (or the environment variables
    STORERECON_APPLE_KEY_FILE, STORERECON_APPLE_CONNECT_KEY_FILE, STORERECON_GOOGLE_SERVICE_ACCOUNT_FILE
    naming them; Stripe's key from STRIPE_API_KEY or fetch.stripe.apiKeyFile, a file only its owner may
    read), never printed.
    Exit codes: 0 fetched, 64 wrong arguments, 65 a response that does not parse (an HTML page,
    truncated JSON, a JWS that does not decode) or a broken state.json, 66 a key file or app rows file
    does not exist, 74 cannot write into the fetch folder, 75 a store unreachable or still answering
    429/5xx after the retries (cron may retry), 77 the store refused the key (401 after a new token,
    403), 78 invalid config, a key file that is not a key or that others can read.

    """

  static func command(_ name: String) -> String? {
    switch name {
    case "fetch": return fetch
    case "run": return run
    case "demo": return demo
    case "db": return database
    case "mail": return mail
    case "settle": return settle
    case "merge": return merge
    case "keymap": return keymap
    case "worker": return worker
    default: return nil
    }
  }
}
