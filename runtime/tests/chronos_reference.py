"""The official Chronos pipelines called directly on one series at a time: the reference that the
parity tests (runtime/tests/test_chronos*.py and test/models.chronos.test.ts) hold the worker to.

    runtime/.venv-core/bin/python runtime/tests/chronos_reference.py < cases.json

stdin: [{"weights": DIR, "model": "chronos" | "chronos-bolt" | "chronos-2", "horizon": H,
         "quantiles": [...], "series": [{"target": [...], "past_covariates"?: {...},
         "future_covariates"?: {...}}]}]   (null = missing, as on the wire)
stdout: per case, per series {"mean": [...], "quantiles": {"0.1": [...], ...}}

Only the official API is used: `BaseChronosPipeline.from_pretrained` and `predict_quantiles` (for
Chronos-2 with the documented list-of-dicts input). Documented choices of the adapters are applied
on top: Chronos-T5 gets its series left-padded with NaN (`padded_context`) and draws from
`torch.manual_seed(series_seed(target))`, and each step's quantiles are sorted across levels (the
protocol's monotone promise).
"""

from __future__ import annotations

import json
import sys
from functools import cache

import numpy as np
import torch
from chronos import BaseChronosPipeline

from horizon_runtime.adapters.chronos_t5 import padded_context, series_seed
from horizon_runtime.quantiles import quantile_key


@cache
def pipeline(weights: str):
    return BaseChronosPipeline.from_pretrained(weights, device_map="cpu", dtype=torch.float32)


def _values(values) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def forecast(weights: str, model: str, horizon: int, quantiles: list[float], series: dict) -> dict:
    target = _values(series["target"])
    levels = sorted(quantiles)
    if model == "chronos-2":
        task = {"target": target}
        for kind in ("past_covariates", "future_covariates"):
            if series.get(kind):
                task[kind] = {name: _values(values) for name, values in series[kind].items()}
        q, mean = pipeline(weights).predict_quantiles([task], prediction_length=horizon, quantile_levels=levels)
        q, mean = q[0][0], mean[0][0]
    elif model == "chronos":
        torch.manual_seed(series_seed(target))
        q, mean = pipeline(weights).predict_quantiles(padded_context(target)[None], prediction_length=horizon, quantile_levels=levels)
        q, mean = q[0], mean[0]
    else:
        q, mean = pipeline(weights).predict_quantiles([torch.from_numpy(target)], prediction_length=horizon, quantile_levels=levels)
        q, mean = q[0], mean[0]
    rows = np.sort(q.numpy().astype(np.float64).T, axis=0)
    return {
        "mean": mean.numpy().astype(np.float64).tolist(),
        "quantiles": {quantile_key(level): rows[i].tolist() for i, level in enumerate(levels)},
    }


def reference(cases: list[dict]) -> list[list[dict]]:
    return [
        [forecast(case["weights"], case["model"], case["horizon"], case["quantiles"], one) for one in case["series"]]
        for case in cases
    ]


if __name__ == "__main__":
    json.dump(reference(json.load(sys.stdin)), sys.stdout)
