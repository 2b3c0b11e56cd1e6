#!/bin/sh
# Importer throughput alone (MB/s per format, one core by default): bytes of a store export to packed
# ledger records, nothing else (no checksum, no chain building, no rules).
#
#   scripts/bench-import.sh [WORLD_DIR] [storerecon-bench options]
#
# WORLD_DIR is a demo world (`storerecon demo --out DIR`); without one, a 200,000-user world is
# generated into a temporary folder first. Options pass through to storerecon-bench:
#   --threads N   chunks parsed at once (default 1: one core)
#   --repeat N    runs per file, the best is kept (default 3)
#   --merge       also merge the records into a ledger builder (chains found), as a run does
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product storerecon >/dev/null
swift build -c release --product storerecon-bench >/dev/null
bin="$(swift build -c release --show-bin-path)"
world="${1:-}"
if [ -n "$world" ] && [ -d "$world" ]; then
  shift
else
  world="$(mktemp -d)/world"
  echo "generating a 200,000-user demo world in $world" >&2
  "$bin/storerecon" demo --users 200000 --out "$world" >/dev/null
fi
exec "$bin/storerecon-bench" "$world"/exports/apple/*.jsonl "$world"/exports/play/salesreport_*.csv \
  "$world"/exports/play/subscriptions*.jsonl "$world"/exports/play/voided*.jsonl "$@"
