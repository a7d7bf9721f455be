#!/usr/bin/env bash
# Every package's tests but the web app's and the docs' (scripts/test-web.sh) on the storage the environment names
# (DATABASE_URL, REDIS_URL; PGlite without them).
# Usage: scripts/test-packages.sh [--storage-only] [jest options...]
#   --storage-only  the run on a second storage: leaves out the suites that test tools rather than the server (the
#                   sdk's: contract, build, downloads; its CLI; the repository's shape, the config reader, the addon
#                   order), and field history's 10,000-write model check (a minute of the entities write path; the
#                   SQL that records history runs here in history.test.ts).
# The packages' test files run in one Jest run over their own configurations (jest.config.js at the root) on two
# workers: the longest files start first and both cores stay busy. The web app's and the docs' browser suites are
# scripts/test-web.sh's. `npm test` in a package runs that one.
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
    'sdk-tests/test/cli\.test\.ts$' 'core/test/(config|order|repository-shape|service-signatures)\.test\.ts$'
    'plugins/history/test/write-paths\.test\.ts$')
fi

status=0
npx jest --maxWorkers=2 "${skip[@]}" "$@" || status=$?
# The AYON addon host's Python side has a suite of its own.
(cd plugins/ayon-host && /usr/bin/python3 -m pytest python/tests -q -p no:cacheprovider) || status=$?

exit "$status"
