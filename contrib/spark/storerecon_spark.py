#!/usr/bin/env python3
"""storerecon on Spark: Spark owns the shuffle of a partitioned run, storerecon the rules and the merge.

    python3 contrib/spark/storerecon_spark.py --config C --date D --partitions N --out OUT \
        [--master local[2]] [--worker PATH] [--work DIR] [--mode shuffle|tasks]

(or the same arguments through spark-submit). The driver writes the lineage keymap
(`storerecon keymap`) and the plan (`storerecon worker plan`). Spark tags every line of the keyed
inputs with its partition (`storerecon worker tag`, a task per input), partitions the lines by that
key, and pipes each partition through `storerecon worker run` (retrying a failed task, as Spark
does); the driver merges the N partials (`storerecon merge`) into OUT: the same reports, byte for
byte, as `storerecon run` over the same config and date. See contrib/spark/README.md.
"""

import argparse
import itertools
import os
import re
import shutil
import subprocess
import sys
import threading
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
    p.add_argument("--executor-worker", default=None, metavar="PATH",
                   help="what the executors run for worker tag and worker run: storerecon-worker, the static "
                        "worker without libpq, libxlsxwriter or libcurl (scripts/worker-binary.sh), or "
                        "storerecon (default: --worker)")
    p.add_argument("--work", default=None, help="folder for the keymap and the partials (default: OUT.parts)")
    p.add_argument("--mode", choices=("shuffle", "tasks"), default="shuffle",
                   help="shuffle (default): Spark splits the keyed inputs' lines and pipes each partition "
                        "through storerecon worker run; tasks: each task runs storerecon run --partition "
                        "over every input (for app rows in PostgreSQL)")
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


def worker_command(exe):
    """The command that runs `worker SUB`: storerecon-worker takes SUB directly, storerecon as `worker SUB`."""
    return [exe] if os.path.basename(exe).startswith("storerecon-worker") else [exe, "worker"]


def executable(worker):
    """The storerecon executable on this machine: the path given, or the file spark-submit --files shipped."""
    from pyspark import SparkFiles
    return worker if os.path.exists(worker) else SparkFiles.get(os.path.basename(worker))


def timed(cmd):
    """cmd under /usr/bin/time (its last stderr line is then the peak RSS in KB), where there is one."""
    return ["/usr/bin/time", "-f", "%M"] + cmd if os.path.exists("/usr/bin/time") else cmd


def piped(cmd, chunks):
    """Runs cmd with the byte strings of `chunks` on its stdin (written from a thread, so that a large
    partition streams); returns (exit code, stdout bytes, stderr text)."""
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    failure = []

    def feed():
        try:
            for chunk in chunks:
                proc.stdin.write(chunk)
            proc.stdin.close()
        except (BrokenPipeError, OSError) as e:  # the worker stopped early: its exit code says why
            failure.append(e)

    errors = []
    writer = threading.Thread(target=feed, daemon=True)
    reader = threading.Thread(target=lambda: errors.append(proc.stderr.read()), daemon=True)
    writer.start()
    reader.start()
    out = proc.stdout.read()
    writer.join()
    reader.join()
    return proc.wait(), out, b"".join(errors).decode("utf-8", "replace")


def shuffled(spark, args, worker, config, keymap, work):
    """Spark owns the shuffle: the keyed inputs' lines are tagged with their partition
    (storerecon worker tag, one task per input), partitioned by Spark, and each partition is piped
    through storerecon worker run; returns the partials' folders."""
    sc = spark.sparkContext
    n, date, fail_once = args.partitions, args.date, args.fail_once
    plan = run([worker, "worker", "plan", "--config", config, "--date", date]).stdout.splitlines()
    on_executors = resolve_worker(args.executor_worker) if args.executor_worker else worker
    # The keymap goes to every executor with Spark's own file broadcast (the only global state).
    sc.addFile(keymap)
    keymap_name = os.path.basename(keymap)

    def local_keymap():
        from pyspark import SparkFiles
        shipped = SparkFiles.get(keymap_name)
        return shipped if os.path.exists(shipped) else keymap
    if not plan or plan[0] != "storerecon-plan 1" or plan[-1] != "end":
        raise SystemExit("storerecon_spark: storerecon worker plan printed no plan")
    digest = plan[1].split("\t")[1]
    keyed = [int(f[1]) for f in (line.split("\t") for line in plan[2:-1]) if f[3] == "keyed"]
    sys.stderr.write(f"storerecon_spark: {len(keyed)} keyed inputs, {len(plan) - 3 - len(keyed)} shared\n")

    def tag(indexes):
        cmd = worker_command(executable(on_executors)) + [
            "tag", "--config", config, "--date", date, "--keymap", local_keymap(), "--partitions", str(n)
        ] + [str(i) for i in indexes]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for line in proc.stdout:
            _, target, rest = line.rstrip(b"\n").split(b"\t", 2)
            if target == b"*":  # a CSV header: every partition reads it
                for p in range(n):
                    yield (p, rest)
            else:
                yield (int(target), rest)
        if proc.wait() != 0:
            raise RuntimeError(f"worker tag {indexes} exited {proc.returncode}: {proc.stderr.read().decode()[-2000:]}")

    def work_on(i, lines):
        ctx = TaskContext.get()
        if fail_once == i and ctx is not None and ctx.attemptNumber() == 0:
            raise RuntimeError(f"injected failure of partition {i}/{n} (--fail-once)")
        head = f"storerecon-worker 1\npartition\t{i}\t{n}\ninputs\t{digest}\n".encode()
        chunks = itertools.chain([head], (line + b"\n" for _, line in lines), [b"end\n"])
        t0 = time.monotonic()
        cmd = timed(worker_command(executable(on_executors)) + [
            "run", "--config", config, "--date", date, "--keymap", local_keymap(), "--quiet"])
        code, out, err = piped(cmd, chunks)
        if code != 0:
            raise RuntimeError(f"worker run {i}/{n} exited {code}: {err.strip()[-2000:]}")
        rss = err.strip().splitlines()[-1] if err.strip() else "?"
        yield (i, out, round(time.monotonic() - t0, 2), rss)

    from pyspark import TaskContext
    tagged = sc.parallelize([[i] for i in keyed], max(len(keyed), 1)).flatMap(tag)
    results = tagged.partitionBy(n, lambda p: p).mapPartitionsWithIndex(work_on).collect()
    results.sort()
    folders = []
    for i, partial, seconds, rss in results:
        folder = os.path.join(work, f"part{i}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "partial.tsv"), "wb") as f:
            f.write(partial)
        folders.append(folder)
        sys.stderr.write(f"storerecon_spark: partition {i}/{n}: {seconds} s, peak RSS {rss} KB, "
                         f"partial {len(partial)} bytes\n")
    return folders


def tasks(spark, args, worker, config, keymap, work):
    """One Spark task per partition, each running storerecon run --partition I/N over every input
    (for a config that reads the app's rows from PostgreSQL); returns the partials' folders."""
    n, date, fail_once = args.partitions, args.date, args.fail_once

    def partition(i):
        ctx = TaskContext.get()
        if fail_once == i and ctx is not None and ctx.attemptNumber() == 0:
            raise RuntimeError(f"injected failure of partition {i}/{n} (--fail-once)")
        part = os.path.join(work, f"part{i}")
        t0 = time.monotonic()
        r = subprocess.run(
            timed([executable(worker), "run", "--config", config, "--date", date, "--partition", f"{i}/{n}",
                   "--keymap", keymap, "--out", part, "--quiet"]),
            capture_output=True, text=True)
        if r.returncode not in (0, 65):
            raise RuntimeError(f"partition {i}/{n} exited {r.returncode}: {r.stderr.strip()[-2000:]}")
        rss = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "?"
        return (i, part, round(time.monotonic() - t0, 2), rss)

    from pyspark import TaskContext
    results = sorted(spark.sparkContext.parallelize(range(n), n).map(partition).collect())
    for i, _, seconds, rss in results:
        sys.stderr.write(f"storerecon_spark: partition {i}/{n}: {seconds} s, peak RSS {rss} KB\n")
    return [part for _, part, _, _ in results]


def main(argv):
    args = parse_args(argv)
    from pyspark.sql import SparkSession

    worker = resolve_worker(args.worker)
    config = os.path.abspath(args.config)
    out = os.path.abspath(args.out)
    work = os.path.abspath(args.work or out + ".parts")
    os.makedirs(work, exist_ok=True)

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
        step = shuffled if args.mode == "shuffle" else tasks
        folders = step(spark, args, worker, config, keymap, work)
        merged = run([worker, "merge", "--config", config, "--date", args.date, "--out", out, "--quiet"] + folders)
        sys.stdout.write(merged.stdout)
        sys.stderr.write(f"storerecon_spark: merged {args.partitions} partials into {out} "
                         f"in {time.monotonic() - started:.1f} s\n")
        return merged.returncode
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
