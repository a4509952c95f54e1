#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs what is missing, builds Toolbench and starts it.

set -eu
cd "$(dirname "$0")/.."

./build-aux/setup.sh
[ -f build/build.ninja ] || meson setup build --buildtype=debugoptimized >/dev/null
meson compile -C build >/dev/null

if [ -x build/src/app/toolbench ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  exec meson devenv -C build ./src/app/toolbench "$@"
else
  echo "No display (or no app built): here is the command-line front end." >&2
  exec ./build/src/cli/toolbench-cli list "$@"
fi
