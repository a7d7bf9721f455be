#!/usr/bin/env bash
# Start (or stop) a throwaway PostgreSQL cluster and Redis on loopback for the test suite.
# Usage: scripts/test-services.sh start|stop   (prints the DATABASE_URL and REDIS_URL to use)
set -euo pipefail
PG_PORT=${PG_PORT:-55432}
REDIS_PORT=${REDIS_PORT:-16379}
RUN_DIR=${RUN_DIR:-/tmp/pipewright-test-services}
PG_VERSION=$(ls /usr/lib/postgresql | sort -n | tail -1)

case "${1:-start}" in
  start)
    mkdir -p "$RUN_DIR"
    if ! pg_lsclusters -h | awk '{print $2}' | grep -qx pwtest; then
      pg_createcluster "$PG_VERSION" pwtest -p "$PG_PORT" -- --auth-local=peer --auth-host=trust >/dev/null
    fi
    pg_ctlcluster "$PG_VERSION" pwtest start >/dev/null 2>&1 || true
    until pg_isready -q -h 127.0.0.1 -p "$PG_PORT"; do sleep 0.2; done
    # A throwaway cluster needs no durability (PostgreSQL's "non-durable settings"): the tests kill Pipewright's
    # processes, never PostgreSQL's, and without the flushes the PostgreSQL pass of the suite runs about 8 % faster.
    psql -qAt -h 127.0.0.1 -p "$PG_PORT" -U postgres -c "ALTER SYSTEM SET fsync = off" \
      -c "ALTER SYSTEM SET synchronous_commit = off" -c "ALTER SYSTEM SET full_page_writes = off" \
      -c "SELECT pg_reload_conf()" >/dev/null
    if ! redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; then
      redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --daemonize yes --dir "$RUN_DIR" \
        --pidfile "$RUN_DIR/redis.pid" --logfile "$RUN_DIR/redis.log" --save "" --appendonly no >/dev/null
      until redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; do sleep 0.2; done
    fi
    echo "DATABASE_URL=postgres://postgres@127.0.0.1:$PG_PORT/postgres"
    echo "REDIS_URL=redis://127.0.0.1:$REDIS_PORT"
    ;;
  stop)
    redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
    pg_ctlcluster "$PG_VERSION" pwtest stop 2>/dev/null || true
    pg_dropcluster "$PG_VERSION" pwtest 2>/dev/null || true
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
