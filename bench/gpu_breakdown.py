"""Where a worker /infer call's time goes for chronos-2 base, stage by stage, in one process (no HTTP):

    PYTHONPATH=runtime python bench/gpu_breakdown.py --model-dir DIR/chronos-2/base [--device cuda] [--batches 1,16,256]

Stages, each timed alone (median of --repeat calls after a warm-up), as the worker runs them:
parse (orjson.loads + protocol.parse_infer_request), tasks (the adapter's per-series
chronos2_prepared), pipeline (predict_quantiles on those prepared tasks), output
(to_predictions: float64 copies, transpose, monotone sort), adapter (Chronos2Adapter.predict_batch = tasks +
pipeline + output, in the worker's thread-pool thread), encode (orjson.dumps of the /infer answer), and for
comparison official (predict_quantiles on plain 1-D arrays, what bench/model_throughput.py inprocess times).
Prints one JSON object on stdout. Measures, never asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor



def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-dir", required=True)
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--batches", default="1,16,256")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    os.environ["HORIZON_DEVICE"] = args.device
    os.environ["HORIZON_MODEL_DIR"] = str(os.path.dirname(os.path.dirname(args.model_dir)))

    import numpy as np
    import orjson
    import torch
    from transformers.utils import logging as transformers_logging

    from horizon_runtime.adapters.base import SeriesInput
    from horizon_runtime.adapters.chronos_2 import Chronos2Adapter, chronos2_prepared
    from horizon_runtime.adapters.chronos_common import to_predictions
    from horizon_runtime.catalog import load_catalog
    from horizon_runtime.protocol import parse_infer_request, resolve_model

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from model_throughput import QUANTILES, median_ms, series

    transformers_logging.disable_progress_bar()
    catalog = load_catalog(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "catalog", "models.json"))
    adapter = Chronos2Adapter(catalog.models["chronos-2"], "base", catalog)
    adapter.load()
    pipeline = adapter.pipeline
    pool = ThreadPoolExecutor(1)
    sync = torch.cuda.synchronize if args.device == "cuda" else (lambda: None)

    def timed(fn):
        return median_ms(fn, args.repeat, sync)

    result = {"device": args.device, "gpu": torch.cuda.get_device_name(0) if args.device == "cuda" else None, "cells": []}
    for batch in map(int, args.batches.split(",")):
        values = [series(i, 512) for i in range(batch)]
        body = orjson.dumps({
            "model": "chronos-2", "size": "base", "freq": "D", "horizon": 64, "quantiles": QUANTILES,
            "series": [{"target": v, "past_covariates": {}, "future_covariates": {}, "static_covariates": {}} for v in values],
        })

        def parse():
            b = orjson.loads(body)
            model, size = resolve_model(b, catalog, "core")
            return parse_infer_request(b, model, size, catalog)

        parse()  # fails early on a body the worker would refuse
        inputs = [SeriesInput(np.asarray(v, dtype=np.float64), {}, {}, {}) for v in values]
        tasks = [chronos2_prepared(one, 64) for one in inputs]
        q, mean = pipeline.predict_quantiles(tasks, prediction_length=64, quantile_levels=QUANTILES, cross_learning=False)
        preds = to_predictions([x[0] for x in q], [x[0] for x in mean], [()] * batch)
        payload = {"model": "chronos-2", "size": "base", "warnings": [], "timing": {},
                   "predictions": [{"mean": p.mean, "quantiles": {repr(l): p.quantiles[i] for i, l in enumerate(QUANTILES)}} for p in preds]}
        plain = [np.asarray(v, dtype=np.float64) for v in values]
        cell = {
            "batch": batch,
            "parse_ms": timed(parse),
            "tasks_ms": timed(lambda: [chronos2_prepared(one, 64) for one in inputs]),
            "pipeline_ms": timed(lambda: pipeline.predict_quantiles(tasks, prediction_length=64, quantile_levels=QUANTILES, cross_learning=False)),
            "output_ms": timed(lambda: to_predictions([x[0] for x in q], [x[0] for x in mean], [()] * batch)),
            "adapter_main_thread_ms": timed(lambda: adapter.predict_batch(inputs, 64, tuple(QUANTILES), "D")),
            "adapter_pool_thread_ms": timed(lambda: pool.submit(adapter.predict_batch, inputs, 64, tuple(QUANTILES), "D").result()),
            "encode_ms": timed(lambda: orjson.dumps(payload, option=orjson.OPT_SERIALIZE_NUMPY)),
            "official_ms": timed(lambda: [x.numpy() for x in pipeline.predict_quantiles(plain, prediction_length=64, quantile_levels=QUANTILES, cross_learning=False)[0]]),
            "request_bytes": len(body),
            "response_bytes": len(orjson.dumps(payload, option=orjson.OPT_SERIALIZE_NUMPY)),
        }
        print(json.dumps(cell), file=sys.stderr)
        result["cells"].append(cell)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
