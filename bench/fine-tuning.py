"""Fine-tuning throughput: Horizon's POST /v1/fine-tuning-jobs vs `Chronos2Pipeline.fit` called directly,
on the same full-size random-weight chronos-2 base (bench/chronos2_base.py, 119.5 M parameters; built
here, never committed), the same series, the same settings (steps, batch size, learning rate, seed,
validation windows), in one run, alternating Horizon and direct.

    runtime/.venv-core/bin/python bench/fine-tuning.py [--steps 20] [--series 64] [--length 256] [--batch 16] [--device cpu] [--rounds 2]

Horizon: a real server (clients/python/tests/server.ts: PGlite, the real worker and fine-tuning
process), the job submitted and polled over HTTP. Reported per run:
  - train steps/s: steps / the training loop's seconds as the fine-tuning process measured them (the `fit` call)
  - job steps/s: steps / (completed - submitted), i.e. everything a user waits for: queue pickup, process
    start and imports, loading the base, the validation WQL before and after, `fit`, the manifest's hashes
Direct: the library's `fit` on the same arrays (`{"target": series[:-h]}` for training, the whole
series for validation, as Horizon holds the last horizon out), timed around the `fit` call; the model
load is not counted (Horizon's train steps/s does not count it either).
Ratios: Horizon ÷ direct (goal ≥ 0.9), for the training loop and for the whole job.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "runtime"))

from horizon_server import start_horizon  # noqa: E402


def series(n: int, length: int) -> list[list[float]]:
    rng = np.random.default_rng(3)
    t = np.arange(length)
    return [list(np.round(100 + 20 * np.sin(2 * np.pi * t / 7 + i) + rng.normal(0, 3, length), 3)) for i in range(n)]


def start_server(model_dir: Path, device: str) -> tuple[subprocess.Popen, str, str]:
    return start_horizon({"HORIZON_DEFAULT_DAILY_QUOTA": "0", "HORIZON_DEFAULT_WEEKLY_QUOTA": "0", "HORIZON_MODEL_DIR": str(model_dir),
                          "HORIZON_DEVICE": device, "HORIZON_LOG_LEVEL": "warn"})


def call(url: str, key: str, method: str, path: str, body=None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    headers = {"authorization": f"Bearer {key}"} | ({"content-type": "application/json"} if data is not None else {})
    request = urllib.request.Request(url + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=600) as response:
        return json.loads(response.read() or b"{}")


def horizon_run(url: str, key: str, values: list[list[float]], args) -> dict:
    index = [str(d) for d in np.arange(np.datetime64("2020-01-01"), np.datetime64("2020-01-01") + args.length)]
    body = {"model": "chronos-2", "model_size": "base", "freq": "D", "horizon": args.horizon, "steps": args.steps,
            "learning_rate": 1e-5, "batch_size": args.batch, "series": [{"index": index, "target": v} for v in values]}
    started = time.perf_counter()
    job = call(url, key, "POST", "/v1/fine-tuning-jobs", body)
    while job["status"] not in ("completed", "failed", "cancelled"):
        time.sleep(0.5)  # the job view changes at most once a second (progress lines); 0.5 s adds <= 0.5 s to job_seconds
        job = call(url, key, "GET", f"/v1/fine-tuning-jobs/{job['job_id']}")
    wall = time.perf_counter() - started
    if job["status"] != "completed":
        raise RuntimeError(json.dumps(job))
    result = {"train_seconds": job["summary"]["train_seconds"], "job_seconds": wall}
    print(json.dumps({"horizon_job": job["job_id"], **result}), flush=True)
    call(url, key, "DELETE", f"/v1/models/{job['model_id']}")
    return result


def direct_run(base_dir: Path, values: list[list[float]], args) -> dict:
    import torch
    from chronos import BaseChronosPipeline
    from transformers.utils import logging as transformers_logging

    transformers_logging.set_verbosity_error()
    pipeline = BaseChronosPipeline.from_pretrained(str(base_dir), device_map=args.device, dtype=torch.float32)
    h = args.horizon
    train = [{"target": np.asarray(v[:-h])} for v in values]
    validation = [{"target": np.asarray(v)} for v in values]
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        pipeline.fit(train, prediction_length=h, validation_inputs=validation, learning_rate=1e-5, num_steps=args.steps,
                     batch_size=args.batch, output_dir=out, remove_printer_callback=True, disable_tqdm=True,
                     logging_steps=max(1, min(100, args.steps // 10)), seed=0)
        return {"train_seconds": time.perf_counter() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--series", type=int, default=64)
    parser.add_argument("--length", type=int, default=256)
    parser.add_argument("--horizon", type=int, default=16)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()
    from chronos2_base import build

    work = Path(tempfile.mkdtemp(prefix="horizon-ft-bench-"))
    try:
        built = build(work)  # writes work/chronos-2/base/
        print(json.dumps({"base": built}), flush=True)
        values = series(args.series, args.length)
        process, url, key = start_server(work, args.device)
        try:
            runs: dict[str, list[dict]] = {"horizon": [], "direct": []}
            for round_ in range(args.rounds):  # alternating, so both sides see the same machine load
                runs["horizon"].append(horizon_run(url, key, values, args))
                print(json.dumps({"round": round_, "horizon": runs["horizon"][-1]}), flush=True)
                runs["direct"].append(direct_run(work / "chronos-2" / "base", values, args))
                print(json.dumps({"round": round_, "direct": runs["direct"][-1]}), flush=True)
        finally:
            process.stdin.close()
            process.wait(timeout=120)
        med = lambda side, field: statistics.median(r[field] for r in runs[side])  # noqa: E731
        summary = {
            "settings": vars(args),
            "direct_steps_per_s": args.steps / med("direct", "train_seconds"),
            "horizon_train_steps_per_s": args.steps / med("horizon", "train_seconds"),
            "horizon_job_steps_per_s": args.steps / med("horizon", "job_seconds"),
        }
        summary["ratio_train"] = summary["horizon_train_steps_per_s"] / summary["direct_steps_per_s"]
        summary["ratio_job"] = summary["horizon_job_steps_per_s"] / summary["direct_steps_per_s"]
        print(json.dumps(summary), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
