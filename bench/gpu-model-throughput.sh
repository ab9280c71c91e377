#!/usr/bin/env bash
# Full-size RANDOM-weight chronos-2 base, tirex and timesfm-2 on a CUDA GPU, series/s at batch 1, 16, 256:
#  (a) the runtime worker's own HTTP POST /infer (python -m horizon_runtime with HORIZON_DEVICE=cuda,
#      the path the control plane calls), driven by bench/model_throughput.py infer with one client
#      (one call in flight) and with CONCURRENCY clients, value arrays in base64 and float32 answers
#      where exact, as the control plane sends and asks them; then CONCURRENCY clients asking float64
#      answers (the float32 answers' effect), one client with JSON arrays (the encoding's effect), and,
#      with WORKERS=2 (the default), CONCURRENCY clients spread over 2 worker processes of the group on
#      the same GPU (client i -> worker i mod 2, as the control plane dispatches with
#      HORIZON_WORKERS_PER_GROUP=2);
#  (b) the official library in-process (bench/full_size.py inprocess_predictor), measured before and
#      after (a) so that drift shows.
# Needs only Python (no Node): runs on the device machine in one command. From the repo root:
#
#   bash bench/gpu-model-throughput.sh [OUT_DIR]       # OUT_DIR default: $OUT, else bench/results/gpu
#
# Wheels missing on the machine (chronos-forecasting, orjson, timesfm, tirex-ts) are installed from
# bench/results/wheels/ when that folder exists (see bench/README.md). Env: PYTHON (default python3),
# MODELS (chronos-2,tirex,timesfm-2), WARMUP (2), DURATION (5), BATCHES (1,16,256), CONCURRENCY (4), DEVICE (cuda),
# WORKERS (2: also the x CONCURRENCY cell over 2 workers; 1: not), BREAKDOWN (1: bench/gpu_breakdown.py for chronos-2).
# Writes <model>-inprocess-1.json, <model>-infer.json, <model>-infer-c.json, <model>-infer-c-f64.json,
# <model>-infer-json.json, <model>-infer-c-w2.json, <model>-inprocess-2.json, <model>-worker*.log,
# chronos-2-breakdown.json, env.txt and summary.txt into OUT_DIR. Measures and reports; never asserts.
# One 10-minute device call: MODELS=chronos-2,tirex,timesfm-2 BATCHES=256 WARMUP=2 DURATION=5 BREAKDOWN=0.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-bench/results/gpu}}
mkdir -p "$out"
PY=${PYTHON:-python3}
MODELS=${MODELS:-chronos-2,tirex,timesfm-2}
DEVICE=${DEVICE:-cuda}  # cpu: a dry run of the script anywhere
WARMUP=${WARMUP:-2} DURATION=${DURATION:-5} BATCHES=${BATCHES:-1,16,256} CONCURRENCY=${CONCURRENCY:-4} WORKERS=${WORKERS:-2}

source bench/worker.sh
install_carried_wheels
export PYTHONPATH=$PWD/runtime${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1

{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
  "$PY" -c 'import sys, importlib.metadata as m, torch; print(sys.version.split()[0], "torch", torch.__version__, "cuda", torch.cuda.is_available(), *(f"{p} {m.version(p)}" for p in ("transformers", "chronos-forecasting", "timesfm", "tirex-ts", "orjson", "aiohttp")))'
  nproc; } | tee "$out/env.txt"

model_dir=$(mktemp -d)
worker_pid= worker2_pid=
cleanup() { for p in $worker_pid $worker2_pid; do kill "$p" 2>/dev/null || true; done; rm -rf "$model_dir"; }
trap cleanup EXIT
common=(--batches "$BATCHES" --warmup "$WARMUP" --duration "$DURATION")
started=$SECONDS

for model in ${MODELS//,/ }; do
  echo "== $model ($((SECONDS - started)) s)"
  dir=$("$PY" bench/full_size.py --model "$model" --out "$model_dir" | "$PY" -c 'import json, sys; print(json.loads(sys.stdin.read())["directory"])')
  # (b) in-process, first pass
  "$PY" bench/model_throughput.py inprocess --model "$model" --model-dir "$dir" --device "$DEVICE" "${common[@]}" > "$out/$model-inprocess-1.json"
  # (a) the worker over HTTP, as the control plane starts it (docs/runtime-protocol.md); with WORKERS=2 a
  # second worker of the group, started meanwhile (it loads the model only when the w2 cell asks)
  start_worker "$out/$model-worker" HORIZON_MODEL_DIR="$model_dir" HORIZON_DEVICE="$DEVICE"
  port=$worker_port worker1_pid=$worker_pid
  if [ "$WORKERS" = 2 ]; then
    start_worker "$out/$model-worker2" HORIZON_MODEL_DIR="$model_dir" HORIZON_DEVICE="$DEVICE"
    port2=$worker_port worker2_pid=$worker_pid
  fi
  worker_pid=$worker1_pid
  url=http://127.0.0.1:$port
  "$PY" bench/model_throughput.py infer --model "$model" --url "$url" "${common[@]}" > "$out/$model-infer.json"
  "$PY" bench/model_throughput.py infer --model "$model" --url "$url" --concurrency "$CONCURRENCY" "${common[@]}" > "$out/$model-infer-c.json"
  # the same clients asking float64 answers (what the control plane asked before float32 answers)
  "$PY" bench/model_throughput.py infer --model "$model" --url "$url" --concurrency "$CONCURRENCY" --answer-dtype float64 "${common[@]}" > "$out/$model-infer-c-f64.json"
  # the same worker with the value arrays as JSON numbers instead of base64 (what the control plane sent before)
  "$PY" bench/model_throughput.py infer --model "$model" --url "$url" --encoding json "${common[@]}" > "$out/$model-infer-json.json"
  if [ "$WORKERS" = 2 ]; then
    # the clients spread over two workers of the group: client i -> worker i mod 2
    "$PY" bench/model_throughput.py infer --model "$model" --url "$url,http://127.0.0.1:$port2" --concurrency "$CONCURRENCY" "${common[@]}" > "$out/$model-infer-c-w2.json"
    kill "$worker2_pid"; wait "$worker2_pid" || true; worker2_pid=
  fi
  kill "$worker_pid"; wait "$worker_pid" || true; worker_pid=
  # (b) in-process again: the spread between the two passes is the noise floor of the comparison
  "$PY" bench/model_throughput.py inprocess --model "$model" --model-dir "$dir" --device "$DEVICE" "${common[@]}" > "$out/$model-inprocess-2.json"
  # where a worker call's time goes, stage by stage, in one process (bench/gpu_breakdown.py: chronos-2 only)
  if [ "$model" = chronos-2 ] && [ "${BREAKDOWN:-1}" = 1 ]; then
    "$PY" bench/gpu_breakdown.py --model-dir "$dir" --device "$DEVICE" --batches "$BATCHES" > "$out/chronos-2-breakdown.json"
  fi
  rm -rf "${model_dir:?}/$model"
done
echo "== done ($((SECONDS - started)) s)"

"$PY" - "$out" "$MODELS" <<'PY' | tee "$out/summary.txt"
import json, os, sys
out, models = sys.argv[1], sys.argv[2].split(",")
load = lambda model, name: json.load(open(f"{out}/{model}-{name}.json")) if os.path.exists(f"{out}/{model}-{name}.json") else None
for model in models:
    p1, inf, infc, p2, infj = (load(model, n) for n in ("inprocess-1", "infer", "infer-c", "inprocess-2", "infer-json"))
    f64, w2 = load(model, "infer-c-f64"), load(model, "infer-c-w2")
    c = infc["concurrency"]
    print(f"\n{model} (random weights), {p1['gpu']}, {p1['dtype']}, torch {p1['torch']}; context {p1['context']}, horizon {p1['horizon']}, quantiles 0.1..0.9")
    print("answers: " + ", ".join(f"{n} {sorted({d for cell in r['cells'] for d in cell.get('answer_dtypes', [])})}" for n, r in (("x1", inf), (f"x{c}", infc), (f"x{c} f64", f64), (f"x{c} 2 workers", w2)) if r))
    print(f"batch  /infer s/s  /infer x{c} s/s  x{c} f64 s/s  x{c} 2w s/s  in-proc#1 s/s  in-proc#2 s/s  /infer÷in-proc  x{c}÷in-proc  x{c} f64÷in-proc  x{c} 2w÷in-proc"
          f"  /infer p50 ms  worker infer_ms  in-proc p50 ms  json /infer s/s  json÷in-proc")
    none = {"series_per_s": float("nan")}
    f64_cells = f64["cells"] if f64 else [none] * len(inf["cells"])
    w2_cells = w2["cells"] if w2 else [none] * len(inf["cells"])
    for a, ac, af, aw, b, d, j in zip(inf["cells"], infc["cells"], f64_cells, w2_cells, p1["cells"], p2["cells"], infj["cells"]):
        mean = (b["series_per_s"] + d["series_per_s"]) / 2
        print(f"{a['batch']:5d}  {a['series_per_s']:10.1f}  {ac['series_per_s']:13.1f}  {af['series_per_s']:11.1f}  {aw['series_per_s']:10.1f}  {b['series_per_s']:13.1f}  {d['series_per_s']:13.1f}  "
              f"{a['series_per_s'] / mean:14.2f}  {ac['series_per_s'] / mean:11.2f}  {af['series_per_s'] / mean:15.2f}  {aw['series_per_s'] / mean:14.2f}"
              f"  {a['p50_ms']:13.1f}  {a['worker_infer_ms_mean']:15.1f}  {(b['p50_ms'] + d['p50_ms']) / 2:14.1f}"
              f"  {j['series_per_s']:15.1f}  {j['series_per_s'] / mean:12.2f}")
if os.path.exists(f"{out}/chronos-2-breakdown.json"):
    cells = json.load(open(f"{out}/chronos-2-breakdown.json"))["cells"]
    print("\nchronos-2 breakdown (median ms per call): " + ", ".join(k for k in cells[0] if k.endswith("_ms")))
    for cell in cells:
        print(f"{cell['batch']:5d}  " + "  ".join(f"{k[:-3]} {v:.2f}" for k, v in cell.items() if k.endswith("_ms")))
PY
