#!/usr/bin/env bash
# Every package's tests on the storage the environment names (DATABASE_URL, REDIS_URL; PGlite without them).
# Usage: scripts/test-packages.sh [--storage-only] [jest options...]
#   --storage-only  the run on a second storage: leaves out the suites that test no storage behaviour the packages'
#                   own suites do not (the web app's and the docs': browsers and site builds), and those that test
#                   tools rather than the server (the sdk's: contract, build, downloads; its CLI; the repository's
#                   shape, the config reader, the addon order).
# The packages' test files run in one Jest run over their own configurations (jest.config.js at the root) on two
# workers: the longest files start first and both cores stay busy. The browser suites run after them, two files at a
# time too: a browser flow waits on the page much of the time (one file at a time used 1.1 of the 2 cores, and took
# 580 s against 460 s). `npm test` in a package runs that one.
set -euo pipefail
cd "$(dirname "$0")/.."

storage_only=
if [ "${1:-}" = --storage-only ]; then
  storage_only=1
  shift
fi
export NODE_OPTIONS="--experimental-vm-modules ${NODE_OPTIONS:-}"

skip=(--ignoreProjects frontend-host docs)
if [ -n "$storage_only" ]; then
  skip=(--ignoreProjects frontend-host docs sdk --testPathIgnorePatterns /node_modules/
    'sdk-tests/test/cli\.test\.ts$' 'core/test/(config|order|repository-shape|service-signatures)\.test\.ts$')
fi

status=0
npx jest --maxWorkers=2 "${skip[@]}" "$@" || status=$?
# The AYON addon host's Python side has a suite of its own.
(cd plugins/ayon-host && /usr/bin/python3 -m pytest python/tests -q -p no:cacheprovider) || status=$?

if [ -z "$storage_only" ]; then
  echo "== the web app's and the docs' suites ($(date -u +%T)) =="
  # What the browser suites read: the built web app (PIPEWRIGHT_WEB_BUILT=1 says it is built already), the web
  # app's own type check (the root one leaves it out) and the built docs site.
  [ -n "${PIPEWRIGHT_WEB_BUILT:-}" ] || npm run build:web
  # The web app's type check (one core) runs beside the docs' build.
  npm run typecheck -w @pipewright/frontend-host &
  typecheck=$!
  npm run build -w @pipewright/docs
  wait "$typecheck"
  npx jest --maxWorkers=2 --selectProjects frontend-host docs "$@" || status=$?
fi
exit "$status"
