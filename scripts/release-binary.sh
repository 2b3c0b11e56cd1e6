#!/usr/bin/env bash
# Builds the release binary that installs on a Debian machine without the Swift toolchain
# (docs/deploy.md#the-release-binary):
#
#   scripts/release-binary.sh [--out DIR]     # default DIR: .build/static
#
# `swift build -c release --static-swift-stdlib` into its own scratch folder (.build/static, so it
# never waits for or disturbs the debug build), then checks the result: `ldd` must name no libswift*,
# no Foundation, no libdispatch and nothing under the toolchain; only Debian's runtime libraries
# (libpq5, libsqlite3-0, libxlsxwriter4, libcurl4, libssl3, zlib1g, libstdc++6, librsvg2-2 and what they pull in). It copies the
# binary to DIR/storerecon and prints its size and its libraries. Exit 0 when the check holds, 1 when
# it does not, 2 when the build fails.
#
# Why not a fully static executable: Debian ships no static libcurl/libpq with their whole dependency
# trees (Kerberos, LDAP, …), and the toolchain here has no static Linux (musl) SDK; the binary links the
# Swift runtime and Foundation statically and the C libraries dynamically, which the Dockerfile and
# the package list in docs/deploy.md install.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

out=.build/static
while (($#)); do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n 2,17p "$0"; exit 0 ;;
    *) echo "scripts/release-binary.sh: unknown argument $1 (--out DIR)" >&2; exit 64 ;;
  esac
done

scratch=.build/static-build
echo "== swift build -c release --static-swift-stdlib --product storerecon (into $scratch)" >&2
if ! swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product storerecon >"$scratch.log" 2>&1; then
  tail -n 30 "$scratch.log" >&2
  echo "scripts/release-binary.sh: the build failed (log: $scratch.log)" >&2
  exit 2
fi
mkdir -p "$out"
cp "$scratch/release/storerecon" "$out/storerecon.part"
strip --strip-debug "$out/storerecon.part" 2>/dev/null || true
mv "$out/storerecon.part" "$out/storerecon"

libraries=$(ldd "$out/storerecon")
echo "$libraries" | sed 's/^/   /' >&2
bad=$(echo "$libraries" | grep -Ei 'libswift|Foundation|libdispatch|BlocksRuntime|/opt/swift|not found' || true)
if [ -n "$bad" ]; then
  echo "scripts/release-binary.sh: $out/storerecon still needs the toolchain's libraries:" >&2
  echo "$bad" >&2
  exit 1
fi
size=$(stat -c %s "$out/storerecon")
echo "== $out/storerecon: $((size / 1024 / 1024)) MiB, $(echo "$libraries" | grep -c '=>') shared libraries, none of the toolchain's" >&2
