#!/usr/bin/env bash
# Rewrites the tidy ratchet lists (Tests/StoreReconTidyTests/*.txt) from the current tree: runs
# the one test that writes them (TidyTreeTests.writeAllowlists, enabled by TIDY_WRITE_ALLOWLISTS=1).
# Then review the diff: after a move the paths change, otherwise the lists should only shrink.
# Extra arguments go to `swift test` (e.g. --skip-build). STORERECON_TIDY_ROOT=DIR checks another tree.
set -euo pipefail
cd "$(dirname "$0")/../.."
TIDY_WRITE_ALLOWLISTS=1 swift test --filter 'StoreReconTidyTests.TidyTreeTests/writeAllowlists' "$@"
git diff --stat -- Tests/StoreReconTidyTests/*.txt || true
