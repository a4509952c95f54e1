#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Fails when libtoolbench exports a symbol that no public header declares:
# private API (_tb_*, *-private.h) and the types of private classes stay
# inside the library.
#
# check-exports.sh LIBRARY SOURCE_DIR BUILD_DIR

set -eu
library=$1
source_dir=$2
build_dir=$3

exported=$(mktemp)
declared=$(mktemp)
trap 'rm -f "$exported" "$declared"' EXIT

nm -D --defined-only "$library" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }' | sort -u > "$exported"
for header in "$source_dir"/*.h "$build_dir"/tb-enums.h "$build_dir"/tb-version.h; do
  case "$header" in
    *-private.h) ;;
    *) cat "$header" ;;
  esac
done | grep -o '\btb_[a-z0-9_]*' | sort -u > "$declared"

extra=$(comm -23 "$exported" "$declared")
if [ -n "$extra" ]; then
  echo "$library exports symbols that no public header declares:"
  echo "$extra"
  exit 1
fi
echo "$(wc -l < "$exported") symbols exported, each declared in a public header"
