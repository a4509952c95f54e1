#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs what is missing, builds Toolbench and runs every test suite
# (UI tests under Xvfb). Prints meson's summary and, last, one line with
# the pass/fail counts of the test programs.

set -eu
cd "$(dirname "$0")/.."

./build-aux/setup.sh
[ -f build/build.ninja ] || meson setup build --buildtype=debugoptimized >/dev/null
meson compile -C build >/dev/null

status=0
xvfb-run -a -s '-screen 0 1280x1024x24 -nolisten tcp' \
  meson test -C build --print-errorlogs --num-processes 2 "$@" || status=$?

python3 - build/meson-logs/testlog.json <<'PY' || true
import json, sys
counts = {"passed": 0, "failed": 0, "skipped": 0}
for line in open(sys.argv[1], encoding="utf-8"):
    result = json.loads(line).get("result")
    if result in ("OK", "EXPECTEDFAIL"):
        counts["passed"] += 1
    elif result == "SKIP":
        counts["skipped"] += 1
    else:
        counts["failed"] += 1
print("%(passed)d passed, %(failed)d failed, %(skipped)d skipped" % counts)
PY

exit $status
