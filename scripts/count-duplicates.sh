#!/usr/bin/env bash
# Counts the pairs of repeated code (six or more lines alike) in the source: tracked and untracked .ts, .tsx, .js,
# .mjs and .py files outside test, tests, sdk-tests, bench and docs folders, without .test. files and .d.ts. It runs
# the workplace's `duplicates` command over a copy of just those files. Usage: scripts/count-duplicates.sh [DIR]
# [duplicates options, e.g. --most 40]; DIR defaults to this checkout.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then
  src=$(cd "$1" && pwd)
  shift
fi
view=$(mktemp -d)
trap 'rm -rf "$view" "$view.list"' EXIT
cd "$src"
{ git ls-files; git ls-files --others --exclude-standard; } | grep -E '\.(ts|tsx|js|mjs|py)$' \
  | grep -vE '(^|/)(test|tests|sdk-tests|bench|docs)/|\.test\.|\.d\.ts$' | while read -r f; do [ -f "$f" ] && echo "$f"; done > "$view.list"
tar cf - -T "$view.list" | tar xf - -C "$view"
cd "$view" && git init -q && git add -A && git -c user.email=x@x -c user.name=x commit -qm view
duplicates --repo "$view" --seconds 120 "$@"
