#!/usr/bin/env bash
# A throwaway PostgreSQL for tests and benchmarks: a fresh cluster in a temporary
# directory, listening only on a Unix socket inside it (no TCP), owned by the
# `postgres` user when run as root (initdb refuses to run as root).
#
#   url=$(tools/pg_throwaway.sh start DIR [PORT])   # prints postgresql://postgres@/memory?host=DIR&port=PORT
#   tools/pg_throwaway.sh stop DIR                  # stops it and removes DIR
#
# Exits 3 with a reason when no PostgreSQL binaries can be found (pg_config --bindir).
set -euo pipefail

cmd=${1:?usage: pg_throwaway.sh start|stop DIR [PORT]}
dir=${2:?usage: pg_throwaway.sh start|stop DIR [PORT]}
port=${3:-5432}

bindir=$(pg_config --bindir 2>/dev/null || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
fi
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "pg_throwaway: no PostgreSQL server binaries (install Debian's postgresql)" >&2
  exit 3
fi

as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then
      chown postgres: "$dir"
      # the server runs as postgres: it must be able to reach DIR (mktemp -d makes 0700 folders)
      chmod a+x "$(dirname "$dir")"
    fi
    chmod 0700 "$dir"
    as_owner "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    # a socket only: listen_addresses='' keeps the server off every network address
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses='' -k $dir -p $port -c fsync=on -c max_connections=200" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bindir/createdb" -h "$dir" -p "$port" -U postgres memory
    echo "postgresql://postgres@/memory?host=$dir&port=$port"
    ;;
  stop)
    if [ -d "$dir/data" ]; then
      as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: pg_throwaway.sh start|stop DIR [PORT]" >&2
    exit 2
    ;;
esac
