#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every language in po/LINGUAS has a .po file that compiles with format
# checks, with no untranslated or fuzzy message, and no message cut off
# at a format macro xgettext cannot read (G_GINT64_FORMAT: such a message
# never matches its translation; PRId64 is the one it reads).
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
  cut=$(msgattrib --no-obsolete "$po/$lang.po" | grep -nE '(^|[^%])(%%)*%"$' || true)
  if [ -n "$cut" ]; then
    echo "po/$lang.po has messages cut off at a format macro xgettext cannot read:" >&2
    echo "$cut" >&2
    status=1
  fi
done
# The same in the messages as the sources say them today, which a .po
# file holds only once it is updated.
cut=$(cd "$1" && xgettext --from-code=UTF-8 --keyword=_ --keyword=N_ --keyword=C_:1c,2 \
        --keyword=NC_:1c,2 --keyword=g_dngettext:2,3 -f po/POTFILES.in -o - 2>/dev/null |
      grep -E '(^|[^%])(%%)*%"$' || true)
if [ -n "$cut" ]; then
  echo "Messages in the sources are cut off at a format macro xgettext cannot read" >&2
  echo "(write 64-bit numbers with PRId64):" >&2
  echo "$cut" >&2
  status=1
fi
exit $status
