#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Fails when a source file with translatable strings is missing from
# po/POTFILES.in, or when POTFILES.in names a file that does not exist.

set -eu
cd "$1"
status=0

for f in $(grep -l -E '(^|[^A-Za-z0-9_])(N?_\(|(g_d|d)?ngettext ?\()' src/*/*.c src/*/*/*.c 2>/dev/null) \
         $(grep -l 'translatable="yes"' src/*/*.ui src/*/*/*.ui 2>/dev/null); do
  if ! grep -qx "$f" po/POTFILES.in; then
    echo "$f has translatable strings but is not in po/POTFILES.in"
    status=1
  fi
done

for f in $(grep -v '^#' po/POTFILES.in | grep -v '^$'); do
  if [ ! -f "$f" ]; then
    echo "po/POTFILES.in names $f, which does not exist"
    status=1
  fi
done

if [ $status = 0 ]; then
  echo "po/POTFILES.in lists every file with translatable strings"
fi
exit $status
