"""The official TimesFM APIs called directly on one series at a time: the reference that the parity
tests (runtime/tests/test_timesfm.py and test/models.timesfm.test.ts) hold the worker to.

    runtime/.venv-core/bin/python runtime/tests/timesfm_reference.py < cases.json

stdin: [{"weights": DIR, "model": "timesfm-2" | "timesfm-3", "horizon": H, "quantiles": [...],
         "max_context"?: timesfm-2's cap (default: the catalog's), "series": [{"target": [...],
         "past_covariates"?: {...}, "future_covariates"?: {...}}]}]   (null = missing, as on the wire)
stdout: per case, per series {"mean": [...], "quantiles": {"0.1": [...], ...}}

TimesFM 2.5: `TimesFM_2p5_200M_torch.from_pretrained`, `compile(ForecastConfig(...))`, `forecast`. The
tiny checkpoints carry their architecture in config.json, which only the adapter's loader
(`TimesFM25`, the library class with the module chosen from config.json) reads; `compile` and
`forecast` are the library's. Documented choices of the adapter are applied on top: the README flags
(`FLAGS`) and the compile settings the adapter runs a series with (`context_bucket`, `horizon_bucket`).
TimesFM 3.0: `TimesFM3Forecaster.from_pretrained` and `predict` with the README settings, a variable
with future values as a past-and-future covariate (history + future), the others past-only, in the
request's order. Requested levels between the nine predicted ones are interpolated here with
`np.interp` (levels outside 0.1-0.9 take the nearest one), and each step's levels are sorted.
"""

from __future__ import annotations

import contextlib
import json
import sys
from functools import cache

import numpy as np
from horizon_runtime.adapters import timesfm_2, timesfm_3
from horizon_runtime.catalog import load_catalog
from horizon_runtime.quantiles import quantile_key

_TIMESFM_2 = load_catalog().models["timesfm-2"]
MAX_CONTEXT = _TIMESFM_2.sizes[_TIMESFM_2.default_size].max_context  # the catalog cap, unless a case names one


def _values(values) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


@cache
def timesfm_2p5(weights: str):
    return timesfm_2.load_model(weights, "cpu")


@cache
def timesfm_3p0(weights: str):
    from timesfm3 import TimesFM3Forecaster

    return TimesFM3Forecaster.from_pretrained(weights, device="cpu", local_files_only=True)


def levels_at(trained: list[float], values: np.ndarray, levels: list[float]) -> np.ndarray:
    """values (horizon, len(trained)) -> (len(levels), horizon), sorted across levels at each step."""
    values = np.sort(np.asarray(values, dtype=np.float64), axis=1)
    rows = np.array([[np.interp(q, trained, step) for step in values] for q in levels]).reshape(len(levels), len(values))
    return np.sort(rows, axis=0)


def forecast(case: dict, series: dict) -> dict:
    weights, horizon, levels = case["weights"], case["horizon"], sorted(case["quantiles"])
    target = _values(series["target"])
    if case["model"] == "timesfm-2":
        model = timesfm_2p5(weights)
        kept = target[int(np.argmax(~np.isnan(target))):]
        model.compile(timesfm_2.forecast_config(
            timesfm_2.context_bucket(len(kept), case.get("max_context", MAX_CONTEXT)), timesfm_2.horizon_bucket(horizon)))
        point, full = model.forecast(horizon, inputs=[target])
        mean, values, trained = point[0], full[0, :, 1:], list(model.model.config.quantiles)
    else:
        model = timesfm_3p0(weights)
        past = {name: _values(v) for name, v in (series.get("past_covariates") or {}).items()}
        future = {name: _values(v) for name, v in (series.get("future_covariates") or {}).items()}
        past_only = [values for name, values in past.items() if name not in future]
        past_future = [np.concatenate([past[name], values]) for name, values in future.items()]
        out = model.predict(
            target, horizon,
            past_only_covariates=np.stack(past_only) if past_only else None,
            past_future_covariates=np.stack(past_future) if past_future else None,
            **timesfm_3.PREDICT_FLAGS,
        )
        mean, values, trained = out.forecast, out.quantiles, list(model.config.quantiles)
    rows = levels_at(trained, values, levels)
    return {
        "mean": np.asarray(mean, dtype=np.float64).tolist(),
        "quantiles": {quantile_key(level): rows[i].tolist() for i, level in enumerate(levels)},
    }


def reference(cases: list[dict]) -> list[list[dict]]:
    return [[forecast(case, one) for one in case["series"]] for case in cases]


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    with contextlib.redirect_stdout(sys.stderr):  # huggingface_hub prints "Loading weights from local directory"
        results = reference(cases)
    json.dump(results, sys.stdout)
