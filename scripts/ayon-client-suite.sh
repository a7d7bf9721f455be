#!/usr/bin/env bash
# Run the real AYON Python client's own test suite, unmodified, against a throwaway Pipewright server started as
# `npm start` starts it: the proof that existing AYON tools work against Pipewright.
#
# Usage: scripts/ayon-client-suite.sh [pytest arguments...]   (default: the whole suite, tests/)
#   The client comes from ../shared/compat/ayon-python-api (AYON_CLIENT_DIR overrides); without it, from PyPI at
#   the same version when the registry has a source release with its tests, else the script says it skipped.
#   With DATABASE_URL (and REDIS_URL) set, the server runs on a fresh database of that PostgreSQL server;
#   otherwise on the embedded PGlite in a throwaway data folder. Needs Debian's python3 with python3-pytest,
#   python3-requests, python3-unidecode and python3-pytest-timeout.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
CLIENT_VERSION=1.2.22
PORT=${AYON_SUITE_PORT:-5077}
PYTHON=${PYTHON:-/usr/bin/python3}
WORK=$(mktemp -d /tmp/ayon-client-suite.XXXXXX)
DATABASE=
. scripts/lib/throwaway-server.sh

cleanup() {
  stop_throwaway_server
  if [ -n "$DATABASE" ]; then
    psql "$DATABASE_URL" -qc "DROP DATABASE IF EXISTS $DATABASE WITH (FORCE)" >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

# The client and its tests: they open files by relative path and write beside them, so they run from a copy.
source_dir=${AYON_CLIENT_DIR:-$REPO/../shared/compat/ayon-python-api}
if [ -d "$source_dir/tests" ]; then
  cp -r "$source_dir" "$WORK/client"
elif "$PYTHON" -m pip download --quiet --no-deps --no-binary :all: -d "$WORK/pypi" \
  "ayon-python-api==$CLIENT_VERSION" >/dev/null 2>&1 &&
  tar -xzf "$WORK"/pypi/*.tar.gz -C "$WORK" && [ -d "$WORK/ayon-python-api-$CLIENT_VERSION/tests" ]; then
  mv "$WORK/ayon-python-api-$CLIENT_VERSION" "$WORK/client"
else
  echo "ayon-client-suite: SKIPPED: no AYON Python client with its tests here (neither $source_dir nor" \
    "ayon-python-api $CLIENT_VERSION from PyPI)"
  exit 0
fi

if [ -n "${DATABASE_URL:-}" ]; then
  DATABASE=pw_ayon_client_$$
  psql "$DATABASE_URL" -qc "CREATE DATABASE $DATABASE" >/dev/null
  export DATABASE_URL="${DATABASE_URL%/*}/$DATABASE"
fi
storage=$([ -n "$DATABASE" ] && echo "PostgreSQL${REDIS_URL:+ with Redis}" || echo "embedded PGlite")

SERVER_LOG_LEVEL=${AYON_SUITE_LOG_LEVEL:-warn} start_throwaway_server ayon-client-suite
# AYON's usual throwaway credentials, allowed by PASSWORD_MIN_LENGTH=0.
token=$(curl -sf -X POST "http://127.0.0.1:$PORT/api/onboarding/initialize" -H 'content-type: application/json' \
  -d '{"adminName": "admin", "adminPassword": "admin"}' | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["token"])')

# The one precondition the suite takes from the long-lived servers it was written against: test_update_event sets
# the user of the oldest event of the last five days to "testing_user" and then expects every field other than those
# it names (user is not one of them) unchanged, so it passes only where an earlier run already did that, on AYON as
# on Pipewright. Done here in the open, through the API, as that earlier run would have done it.
since=$(date -u -d '5 days ago' +%Y-%m-%dT%H:%M:%S+00:00)
oldest=$(curl -sf "http://127.0.0.1:$PORT/graphql" -H "Authorization: Bearer $token" -H 'content-type: application/json' \
  -d "{\"query\": \"{ events(newerThan: \\\"$since\\\", first: 1) { edges { node { id } } } }\"}" |
  "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["data"]["events"]["edges"][0]["node"]["id"])')
curl -sf -X PATCH "http://127.0.0.1:$PORT/api/events/$oldest" -H "Authorization: Bearer $token" \
  -H 'content-type: application/json' -d '{"user": "testing_user"}'
echo "precondition: the oldest recent event ($oldest) names testing_user as its user, as after an earlier run"

echo "== AYON Python client suite ($CLIENT_VERSION) against Pipewright on $storage =="
cd "$WORK/client"
status=0
AYON_SERVER_URL="http://127.0.0.1:$PORT" AYON_API_KEY=$token PYTHONPATH=. PYTHONDONTWRITEBYTECODE=1 \
  "$PYTHON" -m pytest -p no:cacheprovider --timeout 120 -q -rA "${@:-tests}" \
  >"$WORK/pytest.log" 2>&1 || status=$?
# Every failure in full, then the count per test file (from -rA's summary) and pytest's own total.
sed -n '/^=* FAILURES =*$/,/^=* short test summary info =*$/p' "$WORK/pytest.log" | head -c 100000
"$PYTHON" - "$WORK/pytest.log" <<'EOF'
import re, sys
counts = {}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    match = re.match(r"^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (tests/[^:]+)", line)
    if match:
        counts.setdefault(match[2], {}).setdefault(match[1].lower(), 0)
        counts[match[2]][match[1].lower()] += 1
for path, by in sorted(counts.items()):
    print(f"  {path}: " + ", ".join(f"{n} {k}" for k, n in sorted(by.items())))
EOF
tail -n 1 "$WORK/pytest.log"
if [ "$status" -ne 0 ]; then
  echo "ayon-client-suite: FAILED on $storage (pytest exit $status); the server's log:"
  tail -n 50 "$WORK/server.log"
fi
exit "$status"
