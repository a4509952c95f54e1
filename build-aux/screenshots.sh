#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Renders the main views of the window into docs/screenshots/*.png on a
# virtual display. Run from a checkout after building: ./build-aux/screenshots.sh

set -eu
cd "$(dirname "$0")/.."

[ -f build/build.ninja ] || meson setup build --buildtype=debugoptimized >/dev/null
meson compile -C build >/dev/null

for program in screenshots screenshots-run; do
  xvfb-run -a -s '-screen 0 1600x1200x24 -nolisten tcp' env \
    GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR=build/data GDK_BACKEND=x11 \
    GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 LC_ALL=C.UTF-8 \
    ./build/tests/app/$program docs/screenshots
done

# The MCP elicitation dialog, from its test against server-everything.
xvfb-run -a -s '-screen 0 1280x1024x24 -nolisten tcp' env \
  GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR=build/data GDK_BACKEND=x11 \
  GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 LC_ALL=C.UTF-8 \
  TOOLBENCH_SOURCE_ROOT="$PWD" TOOLBENCH_SCREENSHOTS=docs/screenshots \
  ./build/tests/app/test-mcp-sampling -p /mcp-dialogs/elicitation/fits-1280x800 \
  -p /mcp-dialogs/elicitation/fits-600-wide >/dev/null
