# Sourced by .ci/run and scripts/test-postgres.sh: a throwaway PostgreSQL cluster for the tests.
#
#   . scripts/postgres-cluster.sh
#   pg_cluster_start        # initdb + start in a temp dir, exports STORERECON_TEST_PG_* (see below)
#   trap pg_cluster_stop EXIT
#
# The server runs as the `postgres` user when this shell is root (initdb refuses root), else as the
# current user. It listens on a private Unix socket directory and on 127.0.0.1 at a free port from
# 54329 up (or $STORERECON_PG_PORT). Local socket connections are trusted; TCP connections need a
# password (scram-sha-256), so a wrong-password test is real.
#
# Exports:
#   STORERECON_TEST_PG_URL            superuser over the socket (trust): postgresql:///postgres?host=…&port=…&user=postgres
#   STORERECON_TEST_PG_PASSWORD_URL   role storerecon_pw over TCP, database storerecon_test (needs the password)
#   STORERECON_TEST_PG_PASSWORD       that role's password (random per cluster)
#   STORERECON_TEST_PG_PORT           the port

pg_cluster_bindir() {
  if [ -n "${STORERECON_PG_BIN:-}" ]; then
    echo "$STORERECON_PG_BIN"
    return
  fi
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$dir" ] && command -v pg_ctl >/dev/null; then dir=$(dirname "$(command -v pg_ctl)"); fi
  echo "$dir"
}

# Runs a command as the cluster's owner.
pg_cluster_as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

pg_cluster_port_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

pg_cluster_start() {
  local bin port password
  bin=$(pg_cluster_bindir)
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "postgres-cluster: no PostgreSQL server binaries found (install the postgresql package)" >&2
    return 1
  fi
  PG_CLUSTER_BIN="$bin"
  # /tmp, not $TMPDIR: the postgres user must reach it, and a socket path has at most ~100 bytes.
  PG_CLUSTER_DIR=$(mktemp -d /tmp/storerecon-pg.XXXXXX)
  chmod 700 "$PG_CLUSTER_DIR"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$PG_CLUSTER_DIR"; fi
  port=${STORERECON_PG_PORT:-54329}
  while ! pg_cluster_port_free "$port"; do port=$((port + 1)); done
  password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
  printf '%s\n' "$password" >"$PG_CLUSTER_DIR/pwfile"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$PG_CLUSTER_DIR/pwfile"; fi

  pg_cluster_as_owner "$bin/initdb" -D "$PG_CLUSTER_DIR/data" -U postgres -E UTF8 --locale=C --no-sync \
    --auth-local=trust --auth-host=scram-sha-256 >"$PG_CLUSTER_DIR/initdb.log" 2>&1 || {
    cat "$PG_CLUSTER_DIR/initdb.log" >&2
    return 1
  }
  pg_cluster_as_owner "$bin/pg_ctl" -D "$PG_CLUSTER_DIR/data" -l "$PG_CLUSTER_DIR/server.log" -w -t 60 \
    -o "-k $PG_CLUSTER_DIR -p $port -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null || {
    cat "$PG_CLUSTER_DIR/server.log" >&2
    return 1
  }
  pg_cluster_as_owner "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_CLUSTER_DIR" -p "$port" -U postgres -d postgres \
    -v pw="$password" <<'SQL' >/dev/null
SET password_encryption = 'scram-sha-256';
CREATE ROLE storerecon_pw LOGIN PASSWORD :'pw';
CREATE DATABASE storerecon_test OWNER storerecon_pw;
SQL
  export STORERECON_TEST_PG_PORT="$port"
  export STORERECON_TEST_PG_URL="postgresql:///postgres?host=$PG_CLUSTER_DIR&port=$port&user=postgres"
  export STORERECON_TEST_PG_PASSWORD_URL="postgresql://storerecon_pw@127.0.0.1:$port/storerecon_test"
  export STORERECON_TEST_PG_PASSWORD="$password"
  echo "== postgres: throwaway cluster in $PG_CLUSTER_DIR, port $port"
}

pg_cluster_stop() {
  if [ -n "${PG_CLUSTER_DIR:-}" ] && [ -d "$PG_CLUSTER_DIR" ]; then
    if [ -f "$PG_CLUSTER_DIR/data/postmaster.pid" ]; then
      pg_cluster_as_owner "$PG_CLUSTER_BIN/pg_ctl" -D "$PG_CLUSTER_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$PG_CLUSTER_DIR"
    echo "== postgres: cluster stopped and removed"
  fi
  PG_CLUSTER_DIR=""
}

# For `swift test` without a configured server (Tests/…/Postgres/TestDatabase.swift): starts a cluster,
# prints its STORERECON_TEST_PG_* settings as KEY=VALUE lines, and leaves a watchdog that stops and
# removes the cluster once process $1 (the test process) has ended. The port starts at 54329 + $1 mod 400,
# so two test processes starting at once do not race for one port.
#
#   bash -c '. scripts/postgres-cluster.sh; pg_cluster_for_process 12345'
pg_cluster_for_process() {
  local watched="$1"
  STORERECON_PG_PORT=${STORERECON_PG_PORT:-$((54329 + watched % 400))}
  pg_cluster_start >/dev/null || return 1
  printf 'STORERECON_TEST_PG_URL=%s\n' "$STORERECON_TEST_PG_URL"
  printf 'STORERECON_TEST_PG_PASSWORD_URL=%s\n' "$STORERECON_TEST_PG_PASSWORD_URL"
  printf 'STORERECON_TEST_PG_PASSWORD=%s\n' "$STORERECON_TEST_PG_PASSWORD"
  printf 'STORERECON_TEST_PG_PORT=%s\n' "$STORERECON_TEST_PG_PORT"
  PG_CLUSTER_DIR="$PG_CLUSTER_DIR" PG_CLUSTER_BIN="$PG_CLUSTER_BIN" setsid bash -c '
    . "$0"
    while kill -0 "$1" 2>/dev/null; do sleep 1; done
    pg_cluster_stop >/dev/null' "${BASH_SOURCE[0]}" "$watched" </dev/null >/dev/null 2>&1 &
}
