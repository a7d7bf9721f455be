# Sourced by the scripts that try real AYON clients against Pipewright: a throwaway server started as `npm start`
# starts it, in a process group of its own so that the whole tree stops with it.
# The caller sets WORK (a folder of its own, removed by stop_throwaway_server) and PORT; the server's data folder
# and log (server.log) live in WORK. Storage follows the environment, as for `npm start`.

SERVER_PID=

# start_throwaway_server NAME: start the server and wait until it answers (NAME prefixes the error if it does not).
start_throwaway_server() {
  DATA_DIR="$WORK/data" PORT=$PORT HOST=127.0.0.1 LOG_LEVEL=${SERVER_LOG_LEVEL:-warn} PASSWORD_MIN_LENGTH=0 \
    setsid npm start --silent >"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 240); do
    curl -sf "http://127.0.0.1:$PORT/api/info" >/dev/null && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.5
  done
  cat "$WORK/server.log"
  echo "$1: the server did not start"
  return 1
}

# Stop the server and remove WORK. Runs on exit under set -e: nothing here may fail, or its status would replace
# the caller's.
stop_throwaway_server() {
  if [ -n "$SERVER_PID" ]; then
    kill -TERM -- "-$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
