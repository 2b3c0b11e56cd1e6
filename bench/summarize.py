#!/usr/bin/env python3
"""Turns the timing files bench/run collected into the benchmark table (Markdown).

Usage: summarize.py RUN_DIR OUT_MD

RUN_DIR holds, per world W (`realistic`, `jws` or `demo`), size N and run i, under the prefix W-N:
  W-N.storerecon.i.time / W-N.duckdb.i.time   `/usr/bin/time -v` output
  W-N.storerecon.i.manifest.json              storerecon's manifest (phase timings)
  W-N.duckdb.i.stderr                         the rival's step timings (--explain)
  W-N.world.json                              facts about the world (users, bytes, rows)
  W-N.agree                                   "yes" or "no" (the agreement check)
  meta.json                                   date, machine, versions, command line
The realistic world's tables come first.
"""

import glob
import json
import os
import re
import statistics
import sys

TOOLS = [("storerecon", "storerecon"), ("duckdb", "DuckDB")]
WORLDS = [("realistic", "Realistic world (`demo --realistic`: shaped like real exports)"),
          ("jws", "All-JWS world (`demo --realistic --all-jws`: every App Store line a compact JWS with its "
                  "x5c chain, as `fetch` keeps them; the DuckDB rival decodes the payloads and verifies "
                  "nothing)"),
          ("demo", "Demo world (the classic `demo` generator)")]


def wall_seconds(text):
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", text)
    if not m:
        raise SystemExit("summarize: no wall time in a /usr/bin/time -v file")
    hours = int(m.group(1) or 0)
    return hours * 3600 + int(m.group(2)) * 60 + float(m.group(3))


def peak_mb(text):
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    if not m:
        raise SystemExit("summarize: no peak RSS in a /usr/bin/time -v file")
    return int(m.group(1)) / 1024


def cpu_seconds(text):
    """User + system CPU seconds (a shared machine slows the wall time, much less the CPU time)."""
    total = 0.0
    for key in ("User time (seconds)", "System time (seconds)"):
        m = re.search(re.escape(key) + r": ([\d.]+)", text)
        total += float(m.group(1)) if m else 0.0
    return total


def exit_status(text):
    m = re.search(r"Exit status: (\d+)", text)
    return int(m.group(1)) if m else 0


def fmt(value, digits=2):
    return "—" if value is None else f"{value:.{digits}f}"


def main():
    run_dir, out_md = sys.argv[1], sys.argv[2]
    meta = json.load(open(os.path.join(run_dir, "meta.json")))
    prefixes = {os.path.basename(p).split(".")[0] for p in glob.glob(os.path.join(run_dir, "*.time"))}
    found = {}
    for prefix in prefixes:
        kind, _, n = prefix.rpartition("-")
        found.setdefault(kind, set()).add(int(n))
    lines = [f"## Benchmark: storerecon vs DuckDB ({meta['date']}, {meta['machine']})", ""]
    flags = f" --runs {meta['runs']}" + (" --skip-small" if meta.get("skip_small") else "")
    flags += f" --record {meta['record']}" if meta.get("record", "first") != "first" else ""
    lines.append(f"`bench/run --users {meta.get('users', max(max(v) for v in found.values()))}{flags}` — seed "
                 f"{meta['seed']}, as of {meta['date_arg']}; {meta['storerecon']}, DuckDB {meta['duckdb']} "
                 f"(`SET threads=2`), Python {meta['python']}. Runs alternate storerecon / DuckDB; wall time and "
                 "peak RSS from `/usr/bin/time -v`, medians. "
                 + {"warm": "Each storerecon run is a second run over unchanged inputs: the record of verified "
                            "signatures (docs/signatures.md#verified-once) and the snapshot of parsed files "
                            "(docs/snapshot.md) are those an untimed run over the same files left.",
                    "newday": "Each storerecon run of the all-JWS world is the run after one new day: an untimed run "
                              "the day before read the journal's history file alone; the timed run reads it and the "
                              "day's file (`000001-…jsonl`), from the record and snapshot that run left. The other "
                              "worlds' runs are second runs over unchanged inputs."}.get(
                        meta.get("record", "first"),
                        "Each storerecon run is a first run: no record of verified signatures and no snapshot, "
                        "every file parsed and every JWS verified."))
    lines.append("")
    lines.append("What each side computes. storerecon: its whole run — every report of a run (findings, revenue, "
                 "the tie-out, revenue recognition, grants, charges, cases, the experiment readout, both "
                 "workbooks, the summaries, rejects with file and line, the manifest with the SHA-256 of every "
                 "input) and an ES256 verification of every JWS line not "
                 "in its record of verified signatures. The DuckDB rival: `findings.csv` (every finding kind of "
                 "docs/rules.md the demo plants, the credit rules and `double_billing` included, Stripe's chains "
                 "with the stores'), `revenue.csv` (Stripe's charges and refunds included) and the Stripe rows "
                 "of `tieout_orders.csv` (each Stripe charge and refund against the balance report), nothing "
                 "else: not Play's or Apple's tie-out, not payouts.csv; it decodes JWS payloads and verifies no "
                 "signature. bench/compare.py checks those files row for row; the rest of storerecon's work "
                 "is in its time only.")
    lines.append("")
    void = False
    for kind, title in WORLDS:
        if kind in found:
            section_lines, section_void = section(run_dir, kind, title, sorted(found[kind]))
            lines += section_lines
            void = void or section_void
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.dirname(os.path.abspath(out_md)), exist_ok=True)
    with open(out_md, "w") as f:
        f.write(text)
    print(text)
    sys.exit(1 if void else 0)


def section(run_dir, kind, title, sizes):
    """The tables of one world: (Markdown lines, void)."""
    results = {}
    phases = {}
    steps = {}
    for n in sizes:
        tag = f"{kind}-{n}"
        for tool, _ in TOOLS:
            files = sorted(glob.glob(os.path.join(run_dir, f"{tag}.{tool}.*.time")))
            texts = [open(f).read() for f in files]
            bad = [f for f, t in zip(files, texts) if exit_status(t) not in (0,)]
            if bad:
                raise SystemExit(f"summarize: a run failed: {bad[0]}")
            walls = [wall_seconds(t) for t in texts]
            rss = [peak_mb(t) for t in texts]
            cpus = [cpu_seconds(t) for t in texts]
            results[(n, tool)] = (len(files), statistics.median(walls), statistics.median(rss), walls,
                                  statistics.median(cpus), cpus)
        manifests = [json.load(open(f)) for f in sorted(glob.glob(os.path.join(run_dir, f"{tag}.storerecon.*.manifest.json")))]
        if manifests:
            phases[n] = {k: statistics.median(m["timingsMs"][k] for m in manifests) for k in manifests[0]["timingsMs"]}
            # Per input role: median over runs of the summed per-file read time (digest included).
            for prefix in ("app_store", "play.sales", "play.subscriptions", "play.voided", "app."):
                phases[n][prefix] = statistics.median(
                    sum(i.get("elapsedMs", 0) for i in m["inputs"] if i["role"].startswith(prefix)) for m in manifests)
        stderr_files = sorted(glob.glob(os.path.join(run_dir, f"{tag}.duckdb.*.stderr")))
        collected = {}
        for f in stderr_files:
            for line in open(f):
                m = re.match(r"\s+(.+?)\s+(\d+) ms\b", line.rstrip())
                if m:
                    collected.setdefault(m.group(1), []).append(int(m.group(2)))
        steps[n] = {k: statistics.median(v) for k, v in collected.items()}

    agree = {n: open(os.path.join(run_dir, f"{kind}-{n}.agree")).read().strip() for n in sizes
             if os.path.exists(os.path.join(run_dir, f"{kind}-{n}.agree"))}
    worlds = {n: json.load(open(os.path.join(run_dir, f"{kind}-{n}.world.json"))) for n in sizes
              if os.path.exists(os.path.join(run_dir, f"{kind}-{n}.world.json"))}
    big = max(sizes)
    small = min(sizes) if len(sizes) > 1 else None

    lines = []
    w = lines.append
    void = any(v != "yes" for v in agree.values()) or len(agree) < len(sizes)
    w(f"### {title}")
    w("")
    if void:
        w("**VOID: the DuckDB rival and storerecon disagree on at least one size (see the agreement column); "
          "the timings below compare different answers.**")
        w("")
    w("| users | tool | runs | median wall (s) | median CPU (s) | median peak RSS (MB) | wall ÷ DuckDB "
      "| CPU ÷ DuckDB | RSS ÷ DuckDB | wall at N ÷ wall at N/10 | agree |")
    w("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for n in sizes:
        d_wall, d_rss, d_cpu = results[(n, "duckdb")][1], results[(n, "duckdb")][2], results[(n, "duckdb")][4]
        for tool, label in TOOLS:
            runs, wall, rss, _, cpu, _ = results[(n, tool)]
            scale = None
            if small is not None and n == big:
                scale = wall / results[(small, tool)][1]
            w(f"| {n:,} | {label} | {runs} | {wall:.2f} | {cpu:.1f} | {rss:.0f} | {wall / d_wall:.2f} "
              f"| {cpu / d_cpu if d_cpu else 0:.2f} | {rss / d_rss:.2f} | {fmt(scale)} | {agree.get(n, '?')} |")
    w("")
    w("World sizes (the generator's files):")
    w("")
    w("| users | input bytes | App Store lines | Play sales rows | subscription lines | Stripe object lines "
      "| Stripe balance rows | entitlements | findings |")
    w("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in sizes:
        info = worlds.get(n, {})
        w(f"| {n:,} | {info.get('bytes', 0):,} | {info.get('apple_lines', 0):,} | {info.get('sales_rows', 0):,} "
          f"| {info.get('subscription_lines', 0):,} | {info.get('stripe_lines', 0):,} "
          f"| {info.get('stripe_rows', 0):,} | {info.get('entitlements', 0):,} | {info.get('findings', 0):,} |")
    w("")
    if phases:
        w("storerecon phases (manifest `timingsMs`, medians; `read` includes the SHA-256 of every input):")
        w("")
        w("| users | read ms | reconcile ms | write ms | total ms | of which App Store file ms | Play sales files ms "
          "| subscriptions ms | app rows ms |")
        w("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for n in sizes:
            p = phases.get(n)
            if not p:
                continue
            w(f"| {n:,} | {p['read']:.0f} | {p['reconcile']:.0f} | {p['write']:.0f} | {p['total']:.0f} "
              f"| {p['app_store']:.0f} | {p['play.sales']:.0f} | {p['play.subscriptions']:.0f} | {p['app.']:.0f} |")
        w("")
    if any(steps.values()):
        w("DuckDB rival steps (medians, ms; `read …` steps parse and type the files; the App Store file is "
          "read once, its JWS payloads decoded in SQL and not verified):")
        w("")
        labels = list(next(s for s in steps.values() if s).keys())
        w("| step | " + " | ".join(f"{n:,} users" for n in sizes) + " |")
        w("| --- | " + " | ".join("---:" for _ in sizes) + " |")
        for label in labels:
            w(f"| {label} | " + " | ".join(f"{steps[n].get(label, 0):.0f}" for n in sizes) + " |")
        w("")
    w("All runs (wall s): " + "; ".join(
        f"{n:,} {label} " + ", ".join(f"{x:.2f}" for x in results[(n, tool)][3])
        for n in sizes for tool, label in TOOLS))
    w("")
    w("All runs (CPU s, user + system): " + "; ".join(
        f"{n:,} {label} " + ", ".join(f"{x:.1f}" for x in results[(n, tool)][5])
        for n in sizes for tool, label in TOOLS))
    w("")
    return lines, void


if __name__ == "__main__":
    main()
