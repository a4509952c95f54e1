#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The accessibility smoke test: runs the app in its own D-Bus session with
# the AT-SPI bus and drives it with tests/app/a11y-drive.py, through
# accessible names only. Prints TAP. Usage (on a display):
#   a11y-smoke.sh TOOLBENCH DRIVER [JOURNEY [POLICY]]
# JOURNEY is handed to the driver (tests/app/a11y-journeys.py) and names
# the test; POLICY is the approval policy the run starts with
# (approve-all by default). Journeys press real keys with xdotool.

set -u

if [ "${1:-}" = "--inside" ]; then
  app=$2
  driver=$3
  journey=${4:-}
  policy=${5:-approve-all}
  home=$(mktemp -d)
  export XDG_DATA_HOME="$home/data" XDG_CACHE_HOME="$home/cache" XDG_CONFIG_HOME="$home/config"
  # Runs take their approval policy from the preferences (default "ask");
  # the smoke test's demo runs to its end with calls nobody decided run as
  # sent.
  mkdir -p "$home/config/glib-2.0/settings"
  printf "[io/github/toolbench/Toolbench]\napproval-policy='%s'\n" "$policy" \
    > "$home/config/glib-2.0/settings/keyfile"
  # A journey through a running MCP server's window gets the in-tree fake
  # server, started with the app.
  if [ -n "${TB_A11Y_MCP_SERVER:-}" ]; then
    printf "mcp-servers=[('fake', true, '{\"command\": \"/usr/bin/python3\", \"args\": [\"%s\"]}')]\n" \
      "$TB_A11Y_MCP_SERVER" >> "$home/config/glib-2.0/settings/keyfile"
  fi
  # A journey through a tool folder gets TB_A11Y_TOOL_FOLDER manifests, and
  # the last of its tools' pages open when the app last closed.
  if [ -n "${TB_A11Y_TOOL_FOLDER:-}" ]; then
    mkdir -p "$home/tools"
    i=0
    while [ "$i" -lt "$TB_A11Y_TOOL_FOLDER" ]; do
      name=$(printf "tool_%04d" "$i")
      printf '{"name": "%s", "description": "Counts the words of a text", "parameters": {"type": "object", "properties": {"text": {"type": "string"}}}, "command": ["/bin/true"]}\n' \
        "$name" > "$home/tools/$name.json"
      i=$((i + 1))
    done
    printf "tool-folders=['%s']\nlast-tool='tool_%04d'\n" "$home/tools" $((TB_A11Y_TOOL_FOLDER / 2)) \
      >> "$home/config/glib-2.0/settings/keyfile"
  fi
  export GSETTINGS_BACKEND=keyfile
  export GTK_A11Y=atspi
  unset NO_AT_BRIDGE
  # The app's own stderr: a GTK warning or critical anywhere in the
  # session fails the test.
  G_DEBUG=fatal-criticals "$app" 2>"$home/app.err" &
  pid=$!
  /usr/bin/python3 "$driver" toolbench $journey
  status=$?
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  if grep -E "Gtk-WARNING|CRITICAL" "$home/app.err" >/dev/null; then
    echo "# The app printed warnings:"
    sed 's/^/# /' "$home/app.err"
    status=1
  fi
  rm -rf "$home"
  exit "$status"
fi

name=/a11y/${3:-smoke}
echo "1..1"
if [ -n "${3:-}" ] && ! command -v xdotool >/dev/null; then
  echo "ok 1 $name # SKIP xdotool is not installed (build-aux/setup.sh installs it)"
  exit 0
fi
if [ ! -x /usr/bin/python3 ] || ! /usr/bin/python3 -c 'import pyatspi' 2>/dev/null; then
  echo "ok 1 $name # SKIP python3-pyatspi is not installed"
  exit 0
fi
if ! command -v dbus-run-session >/dev/null; then
  echo "ok 1 $name # SKIP dbus-run-session is not installed"
  exit 0
fi

log=$(mktemp)
dbus-run-session -- "$0" --inside "$1" "$2" "${3:-}" "${4:-}" >"$log" 2>&1
status=$?
# The session's daemons print to stdout: keep the log out of the TAP stream.
sed 's/^/# /' "$log" | grep -v '^# #' >&2
grep '^# ' "$log"
rm -f "$log"
if [ "$status" -eq 0 ]; then
  echo "ok 1 $name"
else
  echo "not ok 1 $name"
fi
exit "$status"
