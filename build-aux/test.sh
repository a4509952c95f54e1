#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs what is missing, builds Toolbench and runs every test suite
# (UI tests under Xvfb). Prints meson's summary with the pass/fail counts.

set -eu
cd "$(dirname "$0")/.."

./build-aux/setup.sh
[ -f build/build.ninja ] || meson setup build --buildtype=debugoptimized >/dev/null
meson compile -C build >/dev/null

exec xvfb-run -a -s '-screen 0 1280x1024x24 -nolisten tcp' \
  meson test -C build --print-errorlogs --num-processes 2 "$@"
