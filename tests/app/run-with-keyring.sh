#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a test program on a private session bus with a fresh, unlocked
# GNOME Keyring: HOME and XDG dirs point into a temporary folder, the login
# keyring is created with an empty password read from stdin.
# Usage: run-with-keyring.sh PROGRAM [ARGS…]
set -eu

if ! command -v gnome-keyring-daemon >/dev/null 2>&1 || ! command -v dbus-run-session >/dev/null 2>&1; then
  echo "1..0 # SKIP gnome-keyring-daemon or dbus-run-session is not installed"
  exit 0
fi

# No display: an unlock prompt must fail at once, not wait on a screen.
unset DISPLAY WAYLAND_DISPLAY

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export HOME="$tmp" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" \
       XDG_CACHE_HOME="$tmp/cache" XDG_RUNTIME_DIR="$tmp/run"
mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"

exec dbus-run-session -- sh -c '
  printf "toolbench-test" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  TB_TEST_KEYRING=1 exec "$@"' sh "$@"
