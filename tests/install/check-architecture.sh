#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Fails when a source file is not named in docs/architecture.md, so that
# the map a newcomer reads first stays true.
#
# check-architecture.sh SOURCE_ROOT

set -eu
cd "$1"
status=0

for f in src/libtoolbench/*.c src/libtoolbench/*.h src/libtoolbench/*.in \
         src/libtoolbench/*.map src/libtoolbench/*.xml \
         src/cli/*.c src/cli/*.h \
         src/app/*.c src/app/*.h src/app/*.ui src/app/*.css src/app/*.xml src/app/gtk/*.ui; do
  [ -e "$f" ] || continue
  case "$f" in
    */gtk/*) name=gtk/$(basename "$f") ;;
    *) name=$(basename "$f") ;;
  esac
  if ! grep -q "\`$name\`" docs/architecture.md; then
    echo "$f is not in the file table of docs/architecture.md"
    status=1
  fi
done

if [ $status = 0 ]; then
  echo "docs/architecture.md names every source file"
fi
exit $status
