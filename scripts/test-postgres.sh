#!/usr/bin/env bash
# Runs `swift test` against a throwaway PostgreSQL cluster, as .ci/run does: starts the cluster (as the
# postgres user when run as root) on a private socket directory and a free port from 54329, exports
# STORERECON_TEST_PG_URL, STORERECON_TEST_PG_PASSWORD_URL and STORERECON_TEST_PG_PASSWORD, runs the
# tests (arguments go to `swift test`, e.g. --filter Database), then stops and removes the cluster.
#
# Needs the PostgreSQL server binaries (Debian: apt-get install postgresql; they live in
# /usr/lib/postgresql/<version>/bin, or set STORERECON_PG_BIN).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
. scripts/postgres-cluster.sh
trap pg_cluster_stop EXIT
pg_cluster_start
swift test "$@"
