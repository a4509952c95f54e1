#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every language in po/LINGUAS has a .po file that compiles with format
# checks, with no untranslated or fuzzy message.
# Usage: check-po.sh SOURCE_ROOT
set -eu
po=$1/po
status=0
for lang in $(grep -v '^#' "$po/LINGUAS"); do
  if [ ! -f "$po/$lang.po" ]; then
    echo "po/LINGUAS lists $lang, but po/$lang.po does not exist" >&2
    status=1
    continue
  fi
  stats=$(LC_ALL=C msgfmt --check --statistics -o /dev/null "$po/$lang.po" 2>&1) || { echo "$stats" >&2; status=1; continue; }
  echo "$lang: $stats"
  case $stats in
    *untranslated*|*fuzzy*) echo "po/$lang.po is not complete" >&2; status=1 ;;
  esac
done
exit $status
