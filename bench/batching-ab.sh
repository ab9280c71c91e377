#!/usr/bin/env bash
# Continuous batching (HORIZON_BATCH_ONE_AT_A_TIME=1, the default) against batches side by side (=0),
# in one run: two runtime workers on the same full-size random-weight checkpoint, each driven by
# CONCURRENCY clients (bench/model_throughput.py infer --concurrency), alternating worker by worker
# per batch size. Prints series/s of each and the ratio on ÷ off. Measures, never asserts.
#
#   bash bench/batching-ab.sh [OUT_DIR]     # MODEL=chronos-2 BATCHES=1,4,16 CONCURRENCY=4 DURATION=10 DEVICE=cpu
#
# Both workers are up during the whole run but only one is driven at a time. On a GPU machine:
# PYTHON=python3 DEVICE=cuda, with the wheels of bench/README.md in bench/results/wheels/.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/results/batching}
mkdir -p "$out"
PY=${PYTHON:-runtime/.venv-core/bin/python}
MODEL=${MODEL:-chronos-2} BATCHES=${BATCHES:-1,4,16} CONCURRENCY=${CONCURRENCY:-4}
WARMUP=${WARMUP:-1} DURATION=${DURATION:-10} DEVICE=${DEVICE:-cpu}
source bench/worker.sh
install_carried_wheels
export PYTHONPATH=$PWD/runtime${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1

model_dir=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}" ${worker_pid:-}; do kill "$p" 2>/dev/null || true; done; rm -rf "$model_dir"; }
trap cleanup EXIT
"$PY" bench/full_size.py --model "$MODEL" --out "$model_dir" > /dev/null

declare -A port
for mode in 1 0; do
  start_worker "$out/worker-$mode" HORIZON_MODEL_DIR="$model_dir" HORIZON_DEVICE="$DEVICE" HORIZON_BATCH_ONE_AT_A_TIME=$mode
  pids+=("$worker_pid")
  port[$mode]=$worker_port
done

for batch in ${BATCHES//,/ }; do
  for mode in 1 0; do
    "$PY" bench/model_throughput.py infer --model "$MODEL" --url "http://127.0.0.1:${port[$mode]}" --batches "$batch" \
      --concurrency "$CONCURRENCY" --warmup "$WARMUP" --duration "$DURATION" > "$out/$batch-$mode.json"
  done
done

"$PY" - "$out" "$BATCHES" "$MODEL" "$CONCURRENCY" "$DEVICE" <<'PY' | tee "$out/summary.txt"
import json, os, sys
out, batches, model, concurrency, device = sys.argv[1], sys.argv[2].split(","), *sys.argv[3:]
print(f"{model} (random full-size weights) on {device}, {concurrency} clients, {os.cpu_count()} CPUs; series/s")
print("batch  one at a time  side by side  ratio  calls (one / side)  mean batch series (one / side)")
for batch in batches:
    on, off = (json.load(open(f"{out}/{batch}-{mode}.json"))["cells"][0] for mode in ("1", "0"))
    print(f"{int(batch):5d}  {on['series_per_s']:13.1f}  {off['series_per_s']:12.1f}  {on['series_per_s'] / off['series_per_s']:5.2f}  "
          f"{on['calls']:>8} / {off['calls']:<8}  {on.get('worker_batch_series_mean', float('nan')):.1f} / {off.get('worker_batch_series_mean', float('nan')):.1f}")
PY
