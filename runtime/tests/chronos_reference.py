"""The official Chronos pipelines called plainly on one series at a time: the reference that the parity
tests (runtime/tests/test_chronos_forecasts.py, test/models.chronos.test.ts) hold the worker to. It
shares no code with Horizon (runtime/tests/parity-tolerances.json says how far the worker may differ).

    runtime/.venv-core/bin/python runtime/tests/chronos_reference.py < cases.json

stdin: [{"weights": DIR, "model": "chronos" | "chronos-bolt" | "chronos-2", "horizon": H,
         "quantiles": [...], "series": [{"target": [...], "seed"?: int or its decimal string (chronos: required),
         "past_covariates"?: {...}, "future_covariates"?: {...}}]}]   (null = missing, as on the wire)
stdout: per case, per series {"mean": [...], "quantiles": {"0.1": [...], ...}}

Calls, as chronos-forecasting documents them: `BaseChronosPipeline.from_pretrained(DIR, device_map="cpu",
dtype=torch.float32)`, then `predict_quantiles(context, prediction_length=H, quantile_levels=levels)` on the
raw values, missing ones as NaN (the pipelines mask NaN). Chronos-T5 samples its paths from torch's global
generator, so `torch.manual_seed(seed)` comes first, the seed given by the case (a sampled forecast is
reproducible only for a given seed). Chronos-2 takes the documented list-of-dicts input (target,
past_covariates, future_covariates). Then each step's levels are sorted (the API's monotone promise).
"""

from __future__ import annotations

import contextlib
import json
import sys
from functools import cache

import numpy as np
import torch
from chronos import BaseChronosPipeline


@cache
def pipeline(weights: str):
    return BaseChronosPipeline.from_pretrained(weights, device_map="cpu", dtype=torch.float32)


def as_array(values) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def forecast(case: dict, series: dict) -> dict:
    model, horizon, levels = case["model"], case["horizon"], sorted(float(q) for q in case["quantiles"])
    target = torch.tensor(as_array(series["target"]))
    if model == "chronos-2":
        task = {"target": target}
        for kind in ("past_covariates", "future_covariates"):
            if series.get(kind):
                task[kind] = {name: as_array(values) for name, values in series[kind].items()}
        q, mean = pipeline(case["weights"]).predict_quantiles([task], prediction_length=horizon, quantile_levels=levels)
        q, mean = q[0][0], mean[0][0]  # the one task's one target variate
    else:
        if model == "chronos":
            torch.manual_seed(int(series["seed"]))
        q, mean = pipeline(case["weights"]).predict_quantiles(target, prediction_length=horizon, quantile_levels=levels)
        q, mean = q[0], mean[0]
    rows = np.sort(q.numpy().astype(np.float64).T, axis=0)  # (levels, horizon), sorted at each step
    return {"mean": mean.numpy().astype(np.float64).tolist(), "quantiles": {repr(q): rows[i].tolist() for i, q in enumerate(levels)}}


def reference(cases: list[dict]) -> list[list[dict]]:
    return [[forecast(case, one) for one in case["series"]] for case in cases]


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    with contextlib.redirect_stdout(sys.stderr):  # stdout carries only the answer
        answer = reference(cases)
    json.dump(answer, sys.stdout)
