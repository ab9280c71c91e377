"""Where the time between the library's own batch call and the worker's `predict_batch` goes, for any
torch model of bench/full_size.py, in one process (no HTTP):

    PYTHONPATH=runtime python bench/predict_thread.py --model tirex --model-dir DIR [--device cuda] [--batch 256]

DIR is the HORIZON_MODEL_DIR root (DIR/<id>/<size>/). Each variant is timed alone (median of --repeat
calls after one warm-up): `official` = the library's call (bench/full_size.py inprocess_predictor, what
bench/model_throughput.py inprocess times); `adapter_main` = the worker's adapter.predict_batch on the
calling thread; `adapter_pool` = the same in a ThreadPoolExecutor thread, as the worker runs it;
`adapter_pool_inference_mode` = that thread under torch.inference_mode(). Prints one JSON object.
Measures, never asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True, choices=["chronos-2", "tirex", "timesfm-2"])
    parser.add_argument("--model-dir", required=True, help="the HORIZON_MODEL_DIR root")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--horizon", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    os.environ["HORIZON_DEVICE"] = args.device
    os.environ["HORIZON_MODEL_DIR"] = args.model_dir

    import numpy as np
    import torch

    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    from full_size import SIZES, inprocess_predictor
    from model_throughput import QUANTILES, median_ms, series

    from horizon_runtime.adapters.base import SeriesInput
    from horizon_runtime.catalog import load_catalog
    from horizon_runtime.registry import adapter_class

    catalog = load_catalog(os.path.join(here, "..", "catalog", "models.json"))
    model = catalog.models[args.model]
    size = SIZES[args.model]
    adapter = adapter_class(model.adapter)(model, size, catalog)
    adapter.load()
    directory = os.path.join(args.model_dir, args.model, size)
    official, _ = inprocess_predictor(args.model, directory, args.device, args.horizon, QUANTILES)
    values = [np.asarray(series(i, 512), dtype=np.float64) for i in range(args.batch)]
    inputs = [SeriesInput(v, {}, {}, {}) for v in values]
    pool = ThreadPoolExecutor(1)
    sync = torch.cuda.synchronize if args.device == "cuda" else (lambda: None)

    def predict():
        return adapter.predict_batch(inputs, args.horizon, tuple(QUANTILES), "D")

    def predict_inference_mode():
        with torch.inference_mode():
            return predict()

    def timed(fn):
        return median_ms(fn, args.repeat, sync)

    result = {
        "model": args.model, "device": args.device, "batch": args.batch, "torch": torch.__version__,
        "official_ms": timed(lambda: official(values)),
        "adapter_main_ms": timed(predict),
        "adapter_pool_ms": timed(lambda: pool.submit(predict).result()),
        "adapter_pool_inference_mode_ms": timed(lambda: pool.submit(predict_inference_mode).result()),
        "official_again_ms": timed(lambda: official(values)),
    }
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
