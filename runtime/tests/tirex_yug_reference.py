"""The official tirex-ts and yug libraries called plainly on one series at a time: the reference that the
parity tests (runtime/tests/test_tirex_yug.py, test/models.tirex-yug.test.ts) hold the worker to. It shares
no code with Horizon (runtime/tests/parity-tolerances.json says how far the worker may differ).

    runtime/.venv-core/bin/python runtime/tests/tirex_yug_reference.py < cases.json

stdin: [{"weights": DIR, "model": "tirex" | "house-tsfm", "freq": "H"|"D"|"W"|"MS"|"Q"|"Y", "horizon": H,
         "quantiles": [...], "series": [{"target": [...], "seed"?: int or its decimal string (house-tsfm: required),
         "past_covariates"?: {name: [...]}}]}]   (null = missing, as on the wire)
stdout: per case, per series {"mean": [...], "quantiles": {"0.1": [...], ...}}

TiRex, as the tirex-ts README loads a local checkpoint: `TiRexZero.from_pretrained(DIR/model.ckpt,
backend="torch", device="cpu")`, then `forecast(context=[target], prediction_length=H, output_type="numpy")`
(NaN masked by the model); `mean` is its mean output.
Yug, as its README: `YugPipeline.from_pretrained(DIR, device_map="cpu", dtype=torch.float32)` and
`predict([context], prediction_length=H, freq=ALIAS, seed=seed)` with the library's other defaults; a
series with past covariates is the documented stack (target row first, then one row per covariate). `freq`
is the pandas offset alias of the API's dates (monthly dates are month starts, "MS"; yearly ones year starts,
"YS"), which yug maps onto its own buckets; the seed comes from the case (sampled paths are reproducible only
for a given seed). `mean` is the band's median.
Requested levels between the nine trained ones are linear in the level (np.interp; outside 0.1-0.9 the
nearest), and each step's levels are sorted.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from functools import cache
from pathlib import Path

import numpy as np
import torch

os.environ["TIREX_NO_CUDA"] = "1"
PANDAS_ALIAS = {"H": "h", "D": "D", "W": "W-MON", "MS": "MS", "Q": "QS", "Y": "YS"}  # the API's date grids


@cache
def tirex_model(weights: str):
    from tirex import TiRexZero

    return TiRexZero.from_pretrained(str((Path(weights) / "model.ckpt").resolve()), backend="torch", device="cpu")


@cache
def yug_pipeline(weights: str):
    from yug import YugPipeline

    return YugPipeline.from_pretrained(weights, device_map="cpu", dtype=torch.float32)


def as_array(values) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def forecast(case: dict, series: dict) -> dict:
    target, horizon = as_array(series["target"]), case["horizon"]
    if case["model"] == "tirex":
        model = tirex_model(case["weights"])
        q, mean = model.forecast(context=[target], prediction_length=horizon, output_type="numpy")
        trained, band, mean = list(model.config.quantiles), q[0].T, mean[0]  # (9, H), (H,)
    else:
        pipeline = yug_pipeline(case["weights"])
        covariates = [as_array(v) for v in (series.get("past_covariates") or {}).values()]
        context = np.stack([target, *covariates]) if covariates else target
        result = pipeline.predict([context], prediction_length=horizon, freq=PANDAS_ALIAS[case["freq"]], seed=int(series["seed"]))
        trained, band, mean = list(pipeline.quantile_levels), result.values[0], result.median  # median: (H,) for one series
    ordered = np.sort(np.asarray(band, dtype=np.float64), axis=0)
    levels = sorted(float(q) for q in case["quantiles"])
    rows = np.sort(np.array([[np.interp(q, trained, step) for step in ordered.T] for q in levels]).reshape(len(levels), -1), axis=0)
    return {"mean": np.asarray(mean, dtype=np.float64).tolist(), "quantiles": {repr(q): rows[i].tolist() for i, q in enumerate(levels)}}


def reference(cases: list[dict]) -> list[list[dict]]:
    return [[forecast(case, one) for one in case["series"]] for case in cases]


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    with contextlib.redirect_stdout(sys.stderr):  # from_pretrained prints "Loading weights …"; stdout is the answer
        answer = reference(cases)
    json.dump(answer, sys.stdout)
