#!/usr/bin/env bash
# The web app's and the docs' suites: browsers (Chromium through playwright-core) and the built docs site. They test
# no storage behaviour the packages' own suites (scripts/test-packages.sh) do not, so CI runs them once, on PGlite.
# Usage: scripts/test-web.sh [jest options...]
# Two files run at a time: a browser flow waits on the page much of the time (one file at a time used 1.1 of the 2
# cores, and took 580 s against 460 s).
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_OPTIONS="--experimental-vm-modules ${NODE_OPTIONS:-}"

# What the browser suites read: the built web app (PIPEWRIGHT_WEB_BUILT=1 says it is built already), the web app's
# own type check (the root one leaves it out) and the built docs site (PIPEWRIGHT_WEB_CHECKED=1: both done, as CI's
# setup does them).
[ -n "${PIPEWRIGHT_WEB_BUILT:-}" ] || npm run build:web
if [ -z "${PIPEWRIGHT_WEB_CHECKED:-}" ]; then
  # The web app's type check (one core) runs beside the docs' build.
  npm run typecheck -w @pipewright/frontend-host &
  typecheck=$!
  npm run build -w @pipewright/docs
  wait "$typecheck"
fi
npx jest --maxWorkers=2 --selectProjects frontend-host docs "$@"
