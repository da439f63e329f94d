#!/usr/bin/env bash
# A private PostgreSQL cluster for the tests: initdb into a folder of its own, a Unix socket in that folder and
# no TCP (listen_addresses=''), trust for local connections, fsync off. Run as root, the server runs as the
# `postgres` user. Reuses the cluster when it is already there or running.
#
#   source scripts/start_test_postgres.sh          # starts it and exports CRIBCAM_TEST_PG (what .ci/run does)
#   eval "$(bash scripts/start_test_postgres.sh)"   # the same from a script: it prints the export line
#   bash scripts/start_test_postgres.sh stop        # stops it
#
# CRIBCAM_TEST_PG_DIR sets the folder (default /tmp/cribcam-test-pg); PG_BINDIR the folder holding initdb and
# pg_ctl when they are neither on PATH nor in /usr/lib/postgresql/*/bin (apt-get install -y postgresql).

_cribcam_pg() {
    local dir="${CRIBCAM_TEST_PG_DIR:-/tmp/cribcam-test-pg}" bindir="" candidate owner as=()
    for candidate in "${PG_BINDIR:-}" "$(dirname "$(command -v pg_ctl 2>/dev/null || echo /nonexistent/x)")" \
        $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV) /usr/local/pgsql/bin; do
        if [[ -n "$candidate" && -x "$candidate/initdb" && -x "$candidate/pg_ctl" ]]; then
            bindir="$candidate"
            break
        fi
    done
    if [[ -z "$bindir" ]]; then
        echo "start_test_postgres: no initdb and pg_ctl found; apt-get install -y postgresql, or set PG_BINDIR." >&2
        return 1
    fi
    owner="$(id -un)"
    if [[ "$(id -u)" == 0 ]]; then  # PostgreSQL refuses to run as root
        owner=postgres
        as=(runuser -u postgres --)
    fi
    if [[ "${1:-}" == stop ]]; then
        [[ -f "$dir/data/PG_VERSION" ]] && "${as[@]}" "$bindir/pg_ctl" -D "$dir/data" -m fast stop >&2
        return 0
    fi
    mkdir -p "$dir"
    chown "$owner" "$dir"
    chmod 700 "$dir"
    if [[ ! -f "$dir/data/PG_VERSION" ]]; then
        "${as[@]}" "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust --no-locale -E UTF8 >"$dir/initdb.log"
        printf "%s\n" "listen_addresses = ''" "unix_socket_directories = '$dir'" "fsync = off" \
            "synchronous_commit = off" "full_page_writes = off" >>"$dir/data/postgresql.conf"
    fi
    if ! "${as[@]}" "$bindir/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
        "${as[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >&2 || {
            tail -n 20 "$dir/server.log" >&2
            return 1
        }
    fi
    export CRIBCAM_TEST_PG="postgresql:///postgres?host=$dir&user=postgres"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    set -euo pipefail
    _cribcam_pg "$@"
    [[ "${1:-}" == stop ]] || echo "export CRIBCAM_TEST_PG='$CRIBCAM_TEST_PG'"
else
    _cribcam_pg "$@"
    unset -f _cribcam_pg
fi
