#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the build into a temporary DESTDIR and checks that the program,
# its desktop file, metainfo, settings schema, icons, sample trace and
# translations land where a desktop looks for them, that the API reference
# lands where documentation browsers look for it when it is built, and that
# the installed files still validate.
# Usage: check-install.sh SOURCE_ROOT BUILD_ROOT PREFIX BINDIR DATADIR LIBDIR [REFERENCE]
# REFERENCE is "true" when the build makes the API reference.
set -eu

source_root=$1
build_root=$2
prefix=$3
bindir=$4
datadir=$5
libdir=$6
reference=${7:-false}
app_id=io.github.toolbench.Toolbench

destdir=$(mktemp -d)
trap 'rm -rf "$destdir"' EXIT INT TERM

if ! meson install -C "$build_root" --destdir "$destdir" --no-rebuild --quiet >"$destdir.log" 2>&1; then
  cat "$destdir.log" >&2
  rm -f "$destdir.log"
  echo "meson install into $destdir failed" >&2
  exit 1
fi
rm -f "$destdir.log"

case $bindir in /*) ;; *) bindir=$prefix/$bindir ;; esac
case $datadir in /*) ;; *) datadir=$prefix/$datadir ;; esac
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac

root=$destdir
status=0
expect () {
  if [ -e "$root$1" ]; then
    echo "installed: $1"
  else
    echo "MISSING: $1" >&2
    status=1
  fi
}

expect "$bindir/toolbench"
expect "$bindir/toolbench-cli"
expect "$libdir/libtoolbench-1.so.0"
expect "$datadir/applications/$app_id.desktop"
expect "$datadir/metainfo/$app_id.metainfo.xml"
expect "$datadir/glib-2.0/schemas/$app_id.gschema.xml"
expect "$datadir/icons/hicolor/scalable/apps/$app_id.svg"
expect "$datadir/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
expect "$datadir/toolbench/samples/demo-trace.jsonl"
if [ "$reference" = true ]; then
  expect "$datadir/doc/toolbench-1/index.html"
  expect "$datadir/doc/toolbench-1/class.DispatchLoop.html"
  expect "$datadir/doc/toolbench-1/overview.html"
  expect "$datadir/doc/toolbench-1/toolbench-1.devhelp2"
fi
expect "$datadir/toolbench/plugins-runtime/toolbench-plugin-runner.py"
expect "$datadir/toolbench/plugins-runtime/toolbench-plugin-runner.js"
expect "$datadir/toolbench/plugins-runtime/toolbench_plugin.py"
for lang in $(grep -v '^#' "$source_root/po/LINGUAS"); do
  expect "$datadir/locale/$lang/LC_MESSAGES/toolbench.mo"
done

for program in toolbench toolbench-cli; do
  if [ -e "$root$bindir/$program" ] && [ ! -x "$root$bindir/$program" ]; then
    echo "NOT EXECUTABLE: $bindir/$program" >&2
    status=1
  fi
done

# The installed desktop file names the installed program and icon.
desktop=$root$datadir/applications/$app_id.desktop
if [ -e "$desktop" ]; then
  grep -q "^Exec=toolbench" "$desktop" || { echo "The desktop file does not run toolbench" >&2; status=1; }
  grep -q "^Icon=$app_id\$" "$desktop" || { echo "The desktop file's icon is not $app_id" >&2; status=1; }
  if command -v desktop-file-validate >/dev/null 2>&1; then
    desktop-file-validate "$desktop" || status=1
  fi
fi

# The installed schema compiles on its own.
if [ -d "$root$datadir/glib-2.0/schemas" ]; then
  glib-compile-schemas --strict --dry-run "$root$datadir/glib-2.0/schemas" || status=1
fi

exit $status
