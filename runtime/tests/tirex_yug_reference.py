"""The official tirex-ts and yug libraries called directly on one series at a time: the reference that
the parity tests (runtime/tests/test_tirex_yug.py and test/models.tirex-yug.test.ts) hold the worker to.

    runtime/.venv-core/bin/python runtime/tests/tirex_yug_reference.py < cases.json

stdin: [{"weights": DIR, "model": "tirex" | "house-tsfm", "freq": "H"|"D"|"W"|"MS"|"Q"|"Y", "horizon": H,
         "quantiles": [...], "series": [{"target": [...], "past_covariates"?: {name: [...]}}]}]
         (null = missing, as on the wire)
stdout: per case, per series {"mean": [...], "quantiles": {"0.1": [...], ...}}

Only the official API is used: `TiRexZero.from_pretrained(DIR/model.ckpt, backend="torch")` and
`forecast(context=[series], prediction_length)`; `YugPipeline.from_pretrained(DIR)` and
`predict([context], prediction_length, freq, seed)` with the library's default settings, a covariate
series as the documented stack (target row first, then its past covariates). Each series is forecast
alone, in its own call. The documented choices of the adapters are applied on top: Yug's freq bucket
(`YUG_FREQ`) and per-series seed (`series_seed(target)`), `mean` = Yug's band median, and requested
levels interpolated between the nine trained ones and sorted (`quantiles.interpolate_levels`).
"""

from __future__ import annotations

import json
import os
import sys
from functools import cache
from pathlib import Path

import numpy as np
import torch

from horizon_runtime.adapters.yug import YUG_FREQ, series_seed
from horizon_runtime.quantiles import interpolate_levels, quantile_key

os.environ["TIREX_NO_CUDA"] = "1"


@cache
def tirex_model(weights: str):
    from tirex import TiRexZero

    path = str((Path(weights) / "model.ckpt").resolve())
    stdout, sys.stdout = sys.stdout, sys.stderr  # from_pretrained prints a line; stdout is the answer
    try:
        return TiRexZero.from_pretrained(path, backend="torch", device="cpu")
    finally:
        sys.stdout = stdout


@cache
def yug_pipeline(weights: str):
    from yug import YugPipeline

    return YugPipeline.from_pretrained(weights, device_map="cpu", dtype=torch.float32)


def _values(values) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def forecast(case: dict, series: dict) -> dict:
    target = _values(series["target"])
    horizon = case["horizon"]
    levels = tuple(sorted(case["quantiles"]))
    if case["model"] == "tirex":
        model = tirex_model(case["weights"])
        q, mean = model.forecast(context=[target], prediction_length=horizon, output_type="numpy")
        trained, band, mean = model.config.quantiles, q[0].T, mean[0]  # (9, H), (H,)
    else:
        pipeline = yug_pipeline(case["weights"])
        covariates = [_values(v) for v in (series.get("past_covariates") or {}).values()]
        context = np.stack([target, *covariates]) if covariates else target
        result = pipeline.predict([context], prediction_length=horizon, freq=YUG_FREQ[case["freq"]], seed=series_seed(target))
        trained, band, mean = pipeline.quantile_levels, result.values[0], result.median
    rows, _ = interpolate_levels(trained, band, levels)
    return {
        "mean": np.asarray(mean, dtype=np.float64).tolist(),
        "quantiles": {quantile_key(level): rows[i].tolist() for i, level in enumerate(levels)},
    }


def reference(cases: list[dict]) -> list[list[dict]]:
    return [[forecast(case, one) for one in case["series"]] for case in cases]


if __name__ == "__main__":
    json.dump(reference(json.load(sys.stdin)), sys.stdout)
