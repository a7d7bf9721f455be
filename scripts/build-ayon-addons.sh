#!/usr/bin/env bash
# Build the real AYON addons kept in ../shared/compat/ayon-addons with their own create_package.py (Python's standard
# library alone), from writable copies, into a cache folder the tests read: zips/<name>-<version>.zip as an operator
# uploads them, and unpacked/<name>/<version>/ as the server keeps them once installed. Prints the cache folder.
# Built once per source tree: a folder whose zip exists is not built again.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
source_dir="${AYON_ADDONS_SOURCE:-$repo/../shared/compat/ayon-addons}"
out="${AYON_ADDONS_BUILD:-$repo/.cache/ayon-addons}"
mkdir -p "$out/zips" "$out/unpacked" "$out/work"
for tree in "$source_dir"/*/; do
  tree="${tree%/}"
  [ -f "$tree/create_package.py" ] || continue
  base="$(basename "$tree")"
  name="$(sed -n 's/^name = "\(.*\)"$/\1/p' "$tree/package.py")"
  version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$tree/package.py")"
  zip="$out/zips/$name-$version.zip"
  [ -f "$zip" ] && continue
  rm -rf "$out/work/$base" && cp -r "$tree" "$out/work/$base"
  (cd "$out/work/$base" && /usr/bin/python3 create_package.py >"$out/work/$base.log" 2>&1) ||
    { cat "$out/work/$base.log" >&2; exit 1; }
  mv "$out/work/$base/package/$name-$version.zip" "$zip.partial" && mv "$zip.partial" "$zip"
  rm -rf "$out/work/$base" "$out/work/$base.log" "$out/unpacked/$name/$version"
  mkdir -p "$out/unpacked/$name/$version"
  (cd "$out/unpacked/$name/$version" && /usr/bin/python3 -m zipfile -e "$zip" .)
done
echo "$out"
