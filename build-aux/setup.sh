#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs what is missing to build and test Toolbench on Debian 12.
# Idempotent: when everything is present it prints nothing and takes about a second.

set -eu

PACKAGES="
  build-essential pkg-config meson ninja-build gettext
  libglib2.0-dev libglib2.0-dev-bin
  libgtk-4-dev libadwaita-1-dev libjson-glib-dev libsoup-3.0-dev
  libgtksourceview-5-dev libsecret-1-dev gnome-keyring
  xvfb xauth xdotool dbus-daemon dbus-x11 at-spi2-core python3-pyatspi
  desktop-file-utils appstream appstream-util imagemagick libxml2-utils
  json-schema-test-suite flatpak-builder
  clang libclang-rt-14-dev
  gobject-introspection libgirepository1.0-dev gi-docgen gir1.2-glib-2.0 gir1.2-json-1.0 gir1.2-soup-3.0 python3-gi gjs
"

missing=""
for p in $PACKAGES; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  case "$status" in
    "install ok installed") ;;
    *) missing="$missing $p" ;;
  esac
done

# Node.js runs the real MCP servers in the tests; the machine may already carry
# its own build (with npm inside), which Debian's npm package would conflict with.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  missing="$missing nodejs npm"
fi

if [ -n "$missing" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "Missing packages:$missing" >&2
    echo "Run this script as root, or install them with apt-get." >&2
    exit 1
  fi
  echo "Installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# The MCP servers the tests run against, pinned, in a git-ignored folder.
"$(dirname "$0")/setup-node.sh"
