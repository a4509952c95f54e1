#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Renders the welcome page and the preferences into docs/screenshots/*.png
# on a virtual display. Run from a checkout after building.

set -eu
cd "$(dirname "$0")/.."

[ -f build/build.ninja ] || meson setup build --buildtype=debugoptimized >/dev/null
meson compile -C build >/dev/null

exec xvfb-run -a -s '-screen 0 1600x1200x24 -nolisten tcp' env \
  GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR=build/data GDK_BACKEND=x11 \
  GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 LC_ALL=C.UTF-8 \
  ./build/tests/app/screenshots-preferences docs/screenshots
