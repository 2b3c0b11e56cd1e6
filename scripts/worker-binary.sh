#!/usr/bin/env bash
# Builds storerecon-worker, the worker side of a partitioned run on an engine such as Spark
# (docs/partitions.md#the-worker-protocol), as a fully static executable:
#
#   scripts/worker-binary.sh [--out DIR]     # default DIR: .build/static
#
# `swift build -c release -Xswiftc -static-executable --product storerecon-worker` into its own scratch
# folder, then checks the result: `ldd` must find no shared library at all (the worker links no libpq,
# libxlsxwriter, libcurl or librsvg; libcrypto, zlib, glibc, the Swift runtime and Foundation are linked
# in). It copies the binary, without its debug sections, to DIR/storerecon-worker and prints its size.
# Ship it to executors as it is (spark-submit --files). Exit 0 when the check holds, 1 when it does
# not, 2 when the build fails.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

out=.build/static
while (($#)); do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n 2,12p "$0"; exit 0 ;;
    *) echo "scripts/worker-binary.sh: unknown argument $1 (--out DIR)" >&2; exit 64 ;;
  esac
done

scratch=.build/worker-build
mkdir -p "$(dirname "$scratch")"
echo "== swift build -c release -Xswiftc -static-executable --product storerecon-worker (into $scratch)" >&2
if ! swift build -c release -Xswiftc -static-executable --scratch-path "$scratch" --product storerecon-worker \
  >"$scratch.log" 2>&1; then
  tail -n 30 "$scratch.log" >&2
  echo "scripts/worker-binary.sh: the build failed (log: $scratch.log)" >&2
  exit 2
fi
mkdir -p "$out"
cp "$scratch/release/storerecon-worker" "$out/storerecon-worker.part"
strip --strip-debug "$out/storerecon-worker.part" 2>/dev/null || true
mv "$out/storerecon-worker.part" "$out/storerecon-worker"

if ldd "$out/storerecon-worker" >/dev/null 2>&1; then
  echo "scripts/worker-binary.sh: $out/storerecon-worker is not static; it needs:" >&2
  ldd "$out/storerecon-worker" >&2
  exit 1
fi
"$out/storerecon-worker" --help >/dev/null
size=$(stat -c %s "$out/storerecon-worker")
echo "== $out/storerecon-worker: $((size / 1024 / 1024)) MiB, statically linked (no shared library)" >&2
