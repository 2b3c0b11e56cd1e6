#!/usr/bin/env bash
# Runs the release binary on a clean Debian without the Swift toolchain — what the Dockerfile's image is,
# checked where no Docker engine runs (docs/deploy.md#the-release-binary):
#
#   sudo scripts/check-clean-debian.sh [--binary PATH] [--root DIR] [--keep]
#
# Bootstraps Debian bookworm (debootstrap --variant=minbase, from deb.debian.org) into DIR (default
# .build/debian-root; reused when it is already there), installs exactly the Dockerfile's runtime list
# (deploy/docker/runtime-packages.txt), copies the binary (default .build/static/storerecon, from
# scripts/release-binary.sh) to /usr/local/bin, and, as the non-root user 10001 the image uses, runs
# `storerecon --version`, `storerecon demo` (the embedded world, which checks its own findings),
# `storerecon help run` and `storerecon mail --dry-run` of the demo's reports (its pictures rendered
# to PNG). Needs root (chroot), debootstrap, python3 and network. Exit 0 when all pass.
set -euo pipefail
cd "$(dirname "$0")/.."

binary=.build/static/storerecon
root=.build/debian-root
keep=0
while (($#)); do
  case "$1" in
    --binary) binary="$2"; shift 2 ;;
    --root) root="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n 2,12p "$0"; exit 0 ;;
    *) echo "scripts/check-clean-debian.sh: unknown argument $1" >&2; exit 64 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "scripts/check-clean-debian.sh: needs root (chroot)" >&2; exit 77; }
[ -x "$binary" ] || { echo "scripts/check-clean-debian.sh: no binary at $binary (scripts/release-binary.sh builds it)" >&2; exit 66; }
command -v debootstrap >/dev/null || { echo "scripts/check-clean-debian.sh: install debootstrap" >&2; exit 69; }

if [ ! -x "$root/usr/bin/apt-get" ]; then
  echo "== debootstrap bookworm into $root" >&2
  rm -rf "$root"
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$root.log" 2>&1 || {
    tail -n 20 "$root.log" >&2
    exit 69
  }
fi
mounted=()
cleanup() {
  for m in "${mounted[@]}"; do umount "$m" 2>/dev/null || true; done
  if [ "$keep" = 0 ]; then rm -rf "$root/home/check"; fi
}
trap cleanup EXIT
for m in proc dev; do
  mount --bind "/$m" "$root/$m"
  mounted+=("$root/$m")
done
cp /etc/resolv.conf "$root/etc/resolv.conf"
packages=$(grep -v '^#' deploy/docker/runtime-packages.txt | tr '\n' ' ')
echo "== apt-get install $packages" >&2
chroot "$root" /bin/sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $packages" >"$root.apt.log" 2>&1 || {
  tail -n 20 "$root.apt.log" >&2
  exit 69
}
chroot "$root" /bin/sh -c 'id -u 10001 >/dev/null 2>&1 || useradd --uid 10001 --user-group --home-dir /home/check --create-home storerecon
  mkdir -p /home/check && chown 10001:10001 /home/check'
install -m 0755 "$binary" "$root/usr/local/bin/storerecon"
[ ! -e "$root/opt/swift" ] || { echo "scripts/check-clean-debian.sh: $root has a Swift toolchain" >&2; exit 1; }

run() {
  echo "== storerecon $*" >&2
  chroot --userspec=10001:10001 "$root" /usr/bin/env -i HOME=/home/check PATH=/usr/local/bin:/usr/bin:/bin \
    /bin/sh -c 'cd /home/check && exec /usr/local/bin/storerecon "$@"' storerecon "$@"
}
run --version
run demo --quiet
run help run >/dev/null
# The e-mail's pictures need librsvg and the fonts of the list: a dry run renders them as PNG parts.
python3 - "$root/home/check/demo/storerecon.json" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
config["mail"] = {"smtp": "smtp://127.0.0.1:2525", "from": "recon@acme.example", "to": ["finance@acme.example"]}
json.dump(config, open(sys.argv[1].replace("storerecon.json", "mail.json"), "w"))
PY
run mail --config demo/mail.json --out demo/reports/2026-11-29 --dry-run
pictures=$(grep -c '^Content-Type: image/png' "$root/home/check/demo/reports/2026-11-29/message.eml" || true)
[ "$pictures" -ge 1 ] || { echo "scripts/check-clean-debian.sh: the e-mail has no PNG picture" >&2; exit 1; }
echo "== the dry-run e-mail carries $pictures PNG pictures" >&2
echo "== the binary ran on a clean Debian bookworm with only: $packages" >&2
