#!/usr/bin/env bash
# Chronos-2 base (full size, RANDOM weights) on a CUDA GPU, series/s at batch 1, 16, 256:
#  (a) the runtime worker's own HTTP POST /infer (python -m horizon_runtime with HORIZON_DEVICE=cuda,
#      the path the control plane calls; bf16, micro-batcher defaults), driven by bench/model_throughput.py infer;
#  (b) the official library in-process: Chronos2Pipeline.from_pretrained(dir).predict_quantiles (bf16 on cuda),
#      measured before and after (a) so that drift shows.
# Needs only Python (no Node): runs on the device machine in one command. From the repo root:
#
#   bash bench/gpu-model-throughput.sh [OUT_DIR]       # OUT_DIR default: $OUT, else bench/results/gpu
#
# Wheels missing on the machine (chronos-forecasting, orjson) are installed from bench/results/wheels/
# when that folder exists (see bench/README.md). Env: PYTHON (default python3), WARMUP (2), DURATION (5),
# BATCHES (1,16,256). Writes gpu-inprocess-1.json, gpu-infer.json, gpu-inprocess-2.json, worker.log,
# gpu-breakdown.json, env.txt and a summary.txt table into OUT_DIR. Measures and reports; never asserts.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-bench/results/gpu}}
mkdir -p "$out"
PY=${PYTHON:-python3}
WARMUP=${WARMUP:-2} DURATION=${DURATION:-5} BATCHES=${BATCHES:-1,16,256}

if compgen -G "bench/results/wheels/*.whl" >/dev/null; then
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/horizon-bench-site bench/results/wheels/*.whl
  export PYTHONPATH=/tmp/horizon-bench-site${PYTHONPATH:+:$PYTHONPATH}
fi
export PYTHONPATH=$PWD/runtime:$PYTHONPATH PYTHONUNBUFFERED=1

{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
  "$PY" -c 'import sys, torch, transformers, chronos, orjson, aiohttp; print(sys.version.split()[0], "torch", torch.__version__, "transformers", transformers.__version__, "chronos", chronos.__version__ if hasattr(chronos, "__version__") else "?", "cuda", torch.cuda.is_available())'
  nproc; } | tee "$out/env.txt"

model_dir=$(mktemp -d)
worker_pid=
cleanup() { [ -n "$worker_pid" ] && kill "$worker_pid" 2>/dev/null || true; rm -rf "$model_dir"; }
trap cleanup EXIT
"$PY" bench/chronos2_base.py --out "$model_dir"
common=(--batches "$BATCHES" --warmup "$WARMUP" --duration "$DURATION")

# (b) in-process, first pass
"$PY" bench/model_throughput.py inprocess --model-dir "$model_dir/chronos-2/base" --device cuda "${common[@]}" > "$out/gpu-inprocess-1.json"

# (a) the worker over HTTP, as the control plane starts it (docs/runtime-protocol.md)
HORIZON_MODEL_DIR=$model_dir HORIZON_DEVICE=cuda "$PY" -m horizon_runtime --group core --host 127.0.0.1 --port 0 \
  --catalog catalog/models.json > "$out/worker.stdout" 2> "$out/worker.log" &
worker_pid=$!
for _ in $(seq 1 600); do grep -q '^READY' "$out/worker.stdout" && break; sleep 0.1; done
port=$(sed -n 's/^READY .*"port": \([0-9]*\).*/\1/p' "$out/worker.stdout")
[ -n "$port" ] || { echo "worker did not start"; cat "$out/worker.log"; exit 1; }
"$PY" bench/model_throughput.py infer --url "http://127.0.0.1:$port" "${common[@]}" > "$out/gpu-infer.json"
kill "$worker_pid"; wait "$worker_pid" || true; worker_pid=

# (b) in-process again: the spread between the two passes is the noise floor of the comparison
"$PY" bench/model_throughput.py inprocess --model-dir "$model_dir/chronos-2/base" --device cuda "${common[@]}" > "$out/gpu-inprocess-2.json"

# where a worker call's time goes, stage by stage, in one process (bench/gpu_breakdown.py)
"$PY" bench/gpu_breakdown.py --model-dir "$model_dir/chronos-2/base" --device cuda --batches "$BATCHES" > "$out/gpu-breakdown.json"

"$PY" - "$out" <<'PY' | tee "$out/summary.txt"
import json, sys
out = sys.argv[1]
p1, inf, p2 = (json.load(open(f"{out}/{n}.json")) for n in ("gpu-inprocess-1", "gpu-infer", "gpu-inprocess-2"))
print(f"chronos-2 base random weights, {p1['gpu']}, {p1['dtype']}, torch {p1['torch']}; context {p1['context']}, horizon {p1['horizon']}, quantiles 0.1..0.9")
print("batch  /infer s/s  in-proc#1 s/s  in-proc#2 s/s  ratio(/infer ÷ mean in-proc)  /infer p50 ms  worker infer_ms  in-proc p50 ms")
for a, b, c in zip(inf["cells"], p1["cells"], p2["cells"]):
    mean = (b["series_per_s"] + c["series_per_s"]) / 2
    print(f"{a['batch']:5d}  {a['series_per_s']:10.1f}  {b['series_per_s']:13.1f}  {c['series_per_s']:13.1f}  {a['series_per_s'] / mean:28.2f}  "
          f"{a['p50_ms']:13.1f}  {a['worker_infer_ms_mean']:15.1f}  {(b['p50_ms'] + c['p50_ms']) / 2:14.1f}")
print("\nbreakdown (median ms per call): " + ", ".join(k for k in json.load(open(f"{out}/gpu-breakdown.json"))["cells"][0] if k.endswith("_ms")))
for cell in json.load(open(f"{out}/gpu-breakdown.json"))["cells"]:
    print(f"{cell['batch']:5d}  " + "  ".join(f"{k[:-3]} {v:.2f}" for k, v in cell.items() if k.endswith("_ms")))
PY
