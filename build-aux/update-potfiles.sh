#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Rewrites po/POTFILES.in from the sources: every file with _(), N_(),
# g_dngettext() or a translatable="yes" property.
# tests/data/check-potfiles.sh fails when it is out of date.

set -eu
cd "$(dirname "$0")/.."

{
  echo "# Files with translatable strings; tests/data checks that none is missing."
  echo "# Regenerate with build-aux/update-potfiles.sh."
  ls data/*.desktop.in data/*.metainfo.xml.in data/*.gschema.xml 2>/dev/null
  for dir in src/libtoolbench src/cli src/app; do
    {
      grep -l -E '(^|[^A-Za-z0-9_])(N?_\(|(g_d|d)?ngettext ?\()' "$dir"/*.c "$dir"/*/*.c 2>/dev/null || true
      grep -l 'translatable="yes"' "$dir"/*.ui "$dir"/*/*.ui 2>/dev/null || true
    } | LC_ALL=C sort -u
  done
} > po/POTFILES.in
