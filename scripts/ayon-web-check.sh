#!/usr/bin/env bash
# Visit every screen of AYON's own web app (ynput/ayon-frontend at the commit that goes with server 1.11.3) against
# a throwaway Pipewright server started as `npm start` starts it, as an administrator and as an artist, and fail on
# any page error, GraphQL error, failed call or websocket the server closes (scripts/ayon-web-check.mjs).
#
# Usage: scripts/ayon-web-check.sh
#   The app is built once from a git repository holding that commit (AYON_FRONTEND_GIT, by default the workplace's
#   mirror ../.mirror/ynput+ayon-frontend/repo) into AYON_WEB_DIR (default ~/.cache/pipewright-ayon-web/<commit>).
#   The web app is FSL-licensed: it is never vendored here. Without the repository or a built copy, the check says
#   plainly that it skipped. Screenshots land in AYON_WEB_SHOTS (default test-artifacts/ayon-web).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
COMMIT=fc6a430cdbe8c993617409b44ae27d3f30177f20
SOURCE_GIT=${AYON_FRONTEND_GIT:-$REPO/../.mirror/ynput+ayon-frontend/repo}
APP=${AYON_WEB_DIR:-$HOME/.cache/pipewright-ayon-web/$COMMIT}
PORT=${AYON_WEB_PORT:-5097}
WORK=$(mktemp -d /tmp/ayon-web-check.XXXXXX)
. scripts/lib/throwaway-server.sh
trap stop_throwaway_server EXIT

if [ ! -f "$APP/dist/index.html" ]; then
  if ! git -C "$SOURCE_GIT" cat-file -e "$COMMIT^{commit}" 2>/dev/null; then
    echo "ayon-web-check: SKIPPED: AYON's web app at $COMMIT is neither built ($APP) nor in a repository here" \
      "($SOURCE_GIT); fetch ynput/ayon-frontend and set AYON_FRONTEND_GIT to run it"
    exit 0
  fi
  echo "== building AYON's web app at $COMMIT into $APP (a few minutes) =="
  rm -rf "$APP" && mkdir -p "$APP"
  git -C "$SOURCE_GIT" archive "$COMMIT" | tar -x -C "$APP"
  # Its yarn.lock predates a few of its own ranges, so yarn may add to it; the install is still the locked one.
  (cd "$APP" && npx -y yarn@1.22.22 install --ignore-engines --network-timeout 600000 --silent &&
    ./node_modules/.bin/vite build --logLevel warn)
fi

# The real AYON addons, when their sources are here, so the settings screens show real addon settings.
if [ -d "$REPO/../shared/compat/ayon-addons" ]; then
  AYON_ADDON_ZIPS="$(scripts/build-ayon-addons.sh)/zips"
  export AYON_ADDON_ZIPS
fi

storage="embedded PGlite"
start_throwaway_server ayon-web-check

echo "== AYON's web app ($COMMIT) against Pipewright on $storage =="
status=0
node scripts/ayon-web-check.mjs "$APP/dist" "http://127.0.0.1:$PORT" "${AYON_WEB_SHOTS:-$REPO/test-artifacts/ayon-web}" ||
  status=$?
if [ "$status" -ne 0 ]; then
  echo "ayon-web-check: FAILED; the server's log:"
  tail -n 40 "$WORK/server.log"
fi
exit "$status"
