#!/usr/bin/env bash
# Print the failures recorded in a test log: Jest's "●" blocks and pytest's FAILED/ERROR lines, colours removed.
# CI keeps only the tail of its output, where Jest counts the failures but does not say what failed.
# Usage: scripts/failure-summary.sh LOG [MAX_LINES]
set -uo pipefail
log=$1
max=${2:-200}
echo "== failures recorded in this run =="
sed 's/\x1b\[[0-9;]*m//g' "$log" |
  awk '
    / ● / && !/Console/ { show = 40 }
    /^(FAILED|ERROR) |^[^ ]*: (FAILED|ERROR) / { print; next }
    show > 0 { print; show-- }
  ' | head -n "$max"
