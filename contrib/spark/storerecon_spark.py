#!/usr/bin/env python3
"""storerecon on Spark: one Spark task per partition of a partitioned run, the merge on the driver.

    python3 contrib/spark/storerecon_spark.py --config C --date D --partitions N --out OUT \
        [--master local[2]] [--worker PATH] [--work DIR]

(or the same arguments through spark-submit). The driver writes the lineage keymap
(`storerecon keymap`), Spark runs `storerecon run --partition I/N` for I = 0 .. N-1 as N tasks
(retrying a failed one, as Spark does), and the driver merges the N partials (`storerecon merge`)
into OUT: the same reports, byte for byte, as `storerecon run` over the same config and date.
See contrib/spark/README.md for the data flow and running on a cluster.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="storerecon_spark.py",
        description="Run a storerecon reconciliation as N Spark tasks and merge their partials.",
    )
    p.add_argument("--config", required=True, help="storerecon JSON config (on storage every executor reads)")
    p.add_argument("--date", required=True, help="report date YYYY-MM-DD")
    p.add_argument("--partitions", type=int, required=True, help="number of partitions N (1..4096)")
    p.add_argument("--out", required=True, help="output folder of the merged reports")
    p.add_argument("--master", default=None, help="Spark master (default: spark-submit's); local[K] retries a task 4 times")
    p.add_argument("--worker", default=os.environ.get("STORERECON", "storerecon"),
                   help="the storerecon executable (default: $STORERECON or storerecon on PATH); "
                        "a bare name shipped with spark-submit --files is found with SparkFiles")
    p.add_argument("--work", default=None, help="folder for the keymap and the partials (default: OUT.parts)")
    p.add_argument("--fail-once", type=int, default=None, metavar="I",
                   help="testing: partition I's first attempt fails (Spark retries it)")
    args = p.parse_args(argv)
    if not 1 <= args.partitions <= 4096:
        p.error("--partitions must be from 1 to 4096")
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", args.date):
        p.error("--date must be YYYY-MM-DD")
    return args


def master_with_retries(master):
    """local[K] runs each task once; local[K,4] lets Spark retry a failed task as a cluster does."""
    if master is None:
        return None
    m = re.fullmatch(r"local\[(\d+|\*)\]", master)
    return f"local[{m.group(1)},4]" if m else master


def resolve_worker(worker):
    if os.sep in worker:
        return os.path.abspath(worker)
    found = shutil.which(worker)
    return found or worker


# Exit codes after which the reports are written: 0, 3 (an alert), 4 (incomplete), 65 (a malformed input).
WRITTEN = (0, 3, 4, 65)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode not in WRITTEN:
        sys.stderr.write(r.stderr)
        raise SystemExit(f"storerecon_spark: {' '.join(cmd[:2])} exited {r.returncode}")
    return r


def main(argv):
    args = parse_args(argv)
    from pyspark import SparkFiles, TaskContext
    from pyspark.sql import SparkSession

    worker = resolve_worker(args.worker)
    config = os.path.abspath(args.config)
    out = os.path.abspath(args.out)
    work = os.path.abspath(args.work or out + ".parts")
    os.makedirs(work, exist_ok=True)
    n = args.partitions

    builder = SparkSession.builder.appName(f"storerecon {args.date}")
    master = master_with_retries(args.master)
    if master:
        builder = builder.master(master)
    spark = builder.getOrCreate()
    started = time.monotonic()
    try:
        keymap = os.path.join(work, "keymap.tsv")
        line = run([worker, "keymap", "--config", config, "--date", args.date, "--out", keymap, "--quiet"]).stdout
        sys.stderr.write("storerecon_spark: " + line)

        date, fail_once = args.date, args.fail_once

        def partition(i):
            ctx = TaskContext.get()
            if fail_once == i and ctx is not None and ctx.attemptNumber() == 0:
                raise RuntimeError(f"injected failure of partition {i}/{n} (--fail-once)")
            exe = worker if os.path.exists(worker) else SparkFiles.get(os.path.basename(worker))
            part = os.path.join(work, f"part{i}")
            t0 = time.monotonic()
            r = subprocess.run(
                ["/usr/bin/time", "-f", "%M", exe, "run", "--config", config, "--date", date,
                 "--partition", f"{i}/{n}", "--keymap", keymap, "--out", part, "--quiet"]
                if os.path.exists("/usr/bin/time") else
                [exe, "run", "--config", config, "--date", date, "--partition", f"{i}/{n}",
                 "--keymap", keymap, "--out", part, "--quiet"],
                capture_output=True, text=True)
            if r.returncode not in (0, 65):
                raise RuntimeError(f"partition {i}/{n} exited {r.returncode}: {r.stderr.strip()[-2000:]}")
            rss = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "?"
            return (i, part, round(time.monotonic() - t0, 2), rss)

        results = spark.sparkContext.parallelize(range(n), n).map(partition).collect()
        results.sort()
        for i, _, seconds, rss in results:
            sys.stderr.write(f"storerecon_spark: partition {i}/{n}: {seconds} s, peak RSS {rss} KB\n")
        merged = run([worker, "merge", "--config", config, "--date", args.date, "--out", out, "--quiet"]
                     + [part for _, part, _, _ in results])
        sys.stdout.write(merged.stdout)
        sys.stderr.write(f"storerecon_spark: merged {n} partials into {out} in {time.monotonic() - started:.1f} s\n")
        return merged.returncode
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
