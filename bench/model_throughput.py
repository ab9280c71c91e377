"""Series/s of a foundation model at fixed batch sizes, measured from Python. Two modes:

    python bench/model_throughput.py inprocess [--model chronos-2|tirex|timesfm-2] --model-dir DIR/<id>/<size> [--device cpu|cuda] ...
    python bench/model_throughput.py infer [--model ...] --url http://127.0.0.1:PORT [--size base] [--concurrency N] ...
    python bench/model_throughput.py serve [--model ...] --model-dir DIR/<id>/<size> [--device cpu|cuda] ...

`inprocess`: the official library alone, loaded from the directory and called on the whole batch the
way its documentation shows (bench/full_size.py `inprocess_predictor`: Chronos2Pipeline.predict_quantiles,
TiRexZero.forecast, TimesFM_2p5_200M_torch.compile + forecast), with the dtype the worker uses on that
device (fp32 on the CPU, bf16 on CUDA for Chronos-2; see torch_device.py).
`infer`: the same series POSTed as one body to a runtime worker's `/infer` (docs/runtime-protocol.md),
over one keep-alive connection, as the control plane sends them; with --concurrency N, N clients on
their own connections, each with one call in flight (how a worker is used under load: the next
request's JSON is parsed while the model runs). --url may name several workers (comma-separated):
client i calls worker i mod n, as the control plane spreads calls over a group's workers
(HORIZON_WORKERS_PER_GROUP). Answers are asked as the control plane asks them: base64 with
"float32": true (--answer-dtype float32, the default; the worker answers float32 where exact and says
so in "dtype"); --answer-dtype float64 asks for float64 answers (what the control plane did before).

`serve`: `inprocess`'s library call, one per line read on stdin (a batch size), answered with one JSON
line {"batch", "ms"}, after a first line {"ready": true, ...}: bench/model-throughput.ts --interleave
alternates it call by call with the service, so that both see the same machine.

Each cell (one batch size): warm-up calls for --warmup seconds (at least one), then calls back to
back for --duration seconds (at least --min-calls); series/s = calls × batch / elapsed. Closed loop,
one call in flight. Prints one JSON object on stdout; progress goes to stderr. Measures, never asserts.
The series are the ones bench/model-throughput.ts sends (see `series`), so the figures compare.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import http.client
import json
import math
import os
import platform
import sys
import time
from urllib.parse import urlparse

QUANTILES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]


def series(i: int, length: int) -> list[float]:
    """Series i: daily-ish seasonality, a trend and a level per series, rounded to 2 decimals.
    Same formula as seriesValues() in bench/series.ts."""
    return [
        round(100 + 10 * i + 10 * math.sin(2 * math.pi * t / 24 + i) + 5 * math.sin(2 * math.pi * t / 168) + 0.05 * t, 2)
        for t in range(length)
    ]


def measure(call, batch: int, warmup_s: float, duration_s: float, min_calls: int) -> dict:
    start = time.perf_counter()
    warm_calls = 0
    while warm_calls == 0 or time.perf_counter() - start < warmup_s:
        call()
        warm_calls += 1
    latencies = []
    t0 = time.perf_counter()
    while len(latencies) < min_calls or time.perf_counter() - t0 < duration_s:
        c0 = time.perf_counter()
        call()
        latencies.append(time.perf_counter() - c0)
    elapsed = time.perf_counter() - t0
    latencies.sort()
    return {
        "batch": batch,
        "calls": len(latencies),
        "elapsed_s": elapsed,
        "series_per_s": len(latencies) * batch / elapsed,
        "p50_ms": latencies[(len(latencies) - 1) // 2] * 1e3,
        "max_ms": latencies[-1] * 1e3,
        "warmup_calls": warm_calls,
    }


def median_ms(fn, repeat: int, sync=lambda: None) -> float:
    """Median wall time of `repeat` calls of fn, after one warm-up call; `sync` waits for queued GPU work."""
    import statistics

    fn()
    sync()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        sync()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def load_library(args, inputs: dict[int, list[list[float]]]):
    """The official library loaded from --model-dir (bench/full_size.py `inprocess_predictor`), each batch's
    series as float64 arrays, and what describes the run (load time, torch, threads, dtype, GPU)."""
    import numpy as np
    import torch

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from full_size import inprocess_predictor

    t = time.perf_counter()
    with contextlib.redirect_stdout(sys.stderr):  # TiRex prints "Loading weights…" on stdout, the JSON's channel
        predict, dtype = inprocess_predictor(args.model, args.model_dir, args.device, args.horizon, QUANTILES)
    info = {
        "load_s": time.perf_counter() - t,
        "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        "dtype": str(dtype),
        "gpu": torch.cuda.get_device_name(0) if args.device == "cuda" else None,
    }
    tasks = {b: [np.asarray(s, dtype=np.float64) for s in series_list] for b, series_list in inputs.items()}
    return predict, tasks, info


def run_inprocess(args, inputs: dict[int, list[list[float]]]) -> tuple[list[dict], dict]:
    predict, tasks, info = load_library(args, inputs)
    cells = []
    for batch in args.batches:
        def call():
            predict(tasks[batch])  # results come back as numpy (so CUDA work is finished)

        cell = measure(call, batch, args.warmup, args.duration, args.min_calls)
        print(f"inprocess batch {batch}: {cell['series_per_s']:.1f} series/s ({cell['calls']} calls)", file=sys.stderr)
        cells.append(cell)
    return cells, info


def run_serve(args, inputs: dict[int, list[list[float]]]) -> None:
    """The library loaded once; for each batch size read on stdin, one timed call on that batch."""
    predict, tasks, info = load_library(args, inputs)
    print(json.dumps({"ready": True, **info}), flush=True)
    for line in sys.stdin:
        batch = int(line)
        t = time.perf_counter()
        predict(tasks[batch])  # results come back as numpy (so CUDA work is finished)
        print(json.dumps({"batch": batch, "ms": (time.perf_counter() - t) * 1e3}), flush=True)


def measure_concurrent(calls: list, batch: int, warmup_s: float, duration_s: float, min_calls: int) -> dict:
    """`measure` with len(calls) clients (threads), each calling back to back on its own connection (one
    call in flight per client); series/s counts every client's calls inside the measured window. Used for
    `infer` with any number of clients; `inprocess` keeps `measure`, on the calling thread as a user would."""
    import threading

    latencies: list[float] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(calls) + 1)
    window: dict[str, float] = {}

    def client(call):
        try:
            start = time.perf_counter()
            call()  # at least one warm-up call per client
            while time.perf_counter() - start < warmup_s:
                call()
            barrier.wait()
            mine = []
            while len(mine) < min_calls or time.perf_counter() - window["t0"] < duration_s:
                c0 = time.perf_counter()
                call()
                mine.append(time.perf_counter() - c0)
            latencies.extend(mine)
        except BaseException as exc:  # reported after the join
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=client, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    barrier.wait()
    window["t0"] = time.perf_counter()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    elapsed = time.perf_counter() - window["t0"]
    latencies.sort()
    return {
        "batch": batch, "concurrency": len(calls), "calls": len(latencies), "elapsed_s": elapsed,
        "series_per_s": len(latencies) * batch / elapsed,
        "p50_ms": latencies[(len(latencies) - 1) // 2] * 1e3, "max_ms": latencies[-1] * 1e3,
    }


def run_infer(args, inputs: dict[int, list[list[float]]]) -> tuple[list[dict], dict]:
    try:  # the worker's own JSON library (the control plane's JSON.parse is C++ too); stdlib json otherwise
        from orjson import loads
    except ImportError:
        loads = json.loads
    import numpy as np

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "runtime"))
    from horizon_runtime.protocol import encode_values

    urls = [urlparse(u) for u in args.url.split(",")]

    def decode(text: str, dtype: str) -> list[float]:
        """as src/runtime/wire.ts decodeInferResponse: numbers (doubles), as the control plane reads them"""
        return np.frombuffer(base64.b64decode(text), dtype="<f4" if dtype == "float32" else "<f8").astype(np.float64).tolist()

    def client(i: int = 0):
        url = urls[i % len(urls)]  # client i -> worker i mod n
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=600)

        def post(path: str, body: bytes) -> bytes:
            connection.request("POST", path, body=body, headers={"content-type": "application/json"})
            response = connection.getresponse()
            data = response.read()
            if response.status != 200:
                raise RuntimeError(f"{path} answered {response.status}: {data[:500]!r}")
            return data

        return post

    post = client()
    t = time.perf_counter()
    # every worker loads the model (as the control plane's warm-up does), the first one's answer is reported
    loaded = [json.loads(client(i)("/load", json.dumps({"model": args.model, "size": args.size}).encode())) for i in range(len(urls))][0]
    load_s = time.perf_counter() - t
    cells = []
    for batch in args.batches:
        # base64: what the control plane sends (src/runtime/wire.ts), answered in kind
        targets = [encode_values(s) for s in inputs[batch]] if args.encoding == "base64" else inputs[batch]
        body = json.dumps({
            "model": args.model, "size": args.size, "freq": "D", "horizon": args.horizon, "quantiles": QUANTILES,
            "encoding": args.encoding, **({"float32": args.answer_dtype == "float32"} if args.encoding == "base64" else {}),
            "series": [{"target": t, "past_covariates": {}, "future_covariates": {}, "static_covariates": {}} for t in targets],
        }).encode()
        timings = []
        dtypes = set()

        def call(post=post):
            answer = loads(post("/infer", body))  # parsed and decoded, as the control plane does
            if args.encoding == "base64":
                dtype = answer.get("dtype", "float64")
                dtypes.add(dtype)
                for p in answer["predictions"]:
                    decode(p["mean"], dtype)
                    for values in p["quantiles"].values():
                        decode(values, dtype)
            timings.append(answer["timing"])

        posts = [post] + [client(i) for i in range(1, args.concurrency)]
        cell = measure_concurrent([lambda p=p: call(p) for p in posts], batch, args.warmup, args.duration, args.min_calls)
        measured = timings[-cell["calls"]:]  # every client's warm-up ends before the window opens
        cell["worker_infer_ms_mean"] = sum(x["infer_ms"] for x in measured) / len(measured)
        cell["worker_queue_ms_mean"] = sum(x["queue_ms"] for x in measured) / len(measured)
        cell["worker_batch_series_mean"] = sum(x["batch_series"] for x in measured) / len(measured)
        cell["body_bytes"] = len(body)
        cell["answer_dtypes"] = sorted(dtypes) or ["json"]
        print(f"infer batch {batch} x{args.concurrency}: {cell['series_per_s']:.1f} series/s ({cell['calls']} calls)", file=sys.stderr)
        cells.append(cell)
    return cells, {"load_s": load_s, "load": loaded, "concurrency": args.concurrency, "workers": len(urls),
                   "answer_dtype": args.answer_dtype if args.encoding == "base64" else "json"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["inprocess", "infer", "serve"])
    parser.add_argument("--model", default="chronos-2", choices=["chronos-2", "tirex", "timesfm-2"])
    parser.add_argument("--model-dir", help="inprocess, serve: the checkpoint directory (…/chronos-2/base)")
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"], help="inprocess, serve: where the pipeline runs")
    parser.add_argument("--url", help="infer: the worker's base URL, or several, comma-separated (client i -> URL i mod n)")
    parser.add_argument("--answer-dtype", default="float32", choices=["float32", "float64"],
                        help="infer, base64: ask for float32 answers where exact (as the control plane does) or float64")
    parser.add_argument("--size", help="infer: the catalog size (default: bench/full_size.py's size of --model)")
    parser.add_argument("--concurrency", default=1, type=int, help="infer: clients, each with one call in flight")
    parser.add_argument("--encoding", default="base64", choices=["base64", "json"],
                        help="infer: value arrays as the control plane sends them (base64) or as JSON numbers")
    parser.add_argument("--batches", default="1,16,256", type=lambda s: [int(x) for x in s.split(",")])
    parser.add_argument("--context", default=512, type=int)
    parser.add_argument("--horizon", default=64, type=int)
    parser.add_argument("--warmup", default=1.0, type=float, help="seconds of warm-up per cell (at least one call)")
    parser.add_argument("--duration", default=5.0, type=float, help="seconds measured per cell")
    parser.add_argument("--min-calls", default=2, type=int, help="measured calls per cell at least")
    args = parser.parse_args()
    if args.size is None:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from full_size import SIZES

        args.size = SIZES[args.model]
    inputs = {b: [series(i, args.context) for i in range(b)] for b in args.batches}
    if args.mode == "serve":
        return run_serve(args, inputs)
    cells, info = (run_inprocess if args.mode == "inprocess" else run_infer)(args, inputs)
    print(json.dumps({
        "mode": args.mode, "model": args.model, "device": args.device if args.mode == "inprocess" else "worker",
        "context": args.context, "horizon": args.horizon, "quantiles": QUANTILES,
        "warmup_s": args.warmup, "duration_s": args.duration, "min_calls": args.min_calls,
        "python": platform.python_version(), "cpus": os.cpu_count(), **info, "cells": cells,
    }), flush=True)


if __name__ == "__main__":
    main()
