"""The official TabPFN-TS pipeline called directly on one series at a time: the reference that the
parity tests (runtime/tests/test_tabpfn_ts.py and test/models.tabpfn-ts.test.ts) hold the worker to.

    runtime/.venv-core/bin/python runtime/tests/tabpfn_ts_reference.py < cases.json

stdin: [{"weights": CHECKPOINT_FILE, "freq": "MS", "horizon": H, "quantiles": [...],
         "series": [{"target": [...], "index"?: [dates], "forecast_index"?: [dates],
                     "past_covariates"?: {...}, "future_covariates"?: {...}}]}]
         (null = missing, as on the wire)
stdout: per case, per series {"mean": [...], "quantiles": {"0.1": [...], ...}}

Only the official API is used: `TabPFNTSPipeline(tabpfn_mode=LOCAL, tabpfn_model_config={"model_path",
"device"})` with its default worker (one series per call, so joblib runs it in-process) and
`predict_df(context_df, future_df=..., quantiles=...)`. Documented choices of the adapter are applied on
top: the series' own dates when the case has `index` / `forecast_index` (else the synthetic timestamps,
`timestamps`), the context cap on the CPU (5000 rows, tabpfn's CPU
limit), only the known-future covariates as columns, and each step's quantiles sorted across levels.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from functools import cache

os.environ["TABPFN_DISABLE_TELEMETRY"] = "1"

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from tabpfn_time_series import TabPFNMode, TabPFNTSPipeline  # noqa: E402

from horizon_runtime.adapters.tabpfn_ts import timestamps  # noqa: E402
from horizon_runtime.quantiles import quantile_key  # noqa: E402

CPU_CONTEXT = 5000


@cache
def pipeline(weights: str) -> TabPFNTSPipeline:
    return TabPFNTSPipeline(
        max_context_length=CPU_CONTEXT,
        tabpfn_mode=TabPFNMode.LOCAL,
        tabpfn_model_config={"model_path": weights, "device": "cpu"},
    )


def _values(values) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def forecast(weights: str, freq: str, horizon: int, quantiles: list[float], series: dict) -> dict:
    target = _values(series["target"])
    if "index" in series:  # the request's dates, as a caller of the library would pass them
        past, future = pd.to_datetime(series["index"]), pd.to_datetime(series["forecast_index"])
    else:
        past, future = timestamps(freq, len(target), horizon)
    context_df = pd.DataFrame({"timestamp": past, "target": target})
    future_df = pd.DataFrame({"timestamp": future})
    for name, values in (series.get("future_covariates") or {}).items():
        context_df[name] = _values(series["past_covariates"][name])
        future_df[name] = _values(values)
    levels = sorted(float(q) for q in quantiles)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        result = pipeline(weights).predict_df(context_df, future_df=future_df, quantiles=levels)
    rows = np.sort(np.stack([result[q].to_numpy(dtype=np.float64) for q in levels]), axis=0)
    return {
        "mean": result["target"].to_numpy(dtype=np.float64).tolist(),
        "quantiles": {quantile_key(level): rows[i].tolist() for i, level in enumerate(levels)},
    }


def reference(cases: list[dict]) -> list[list[dict]]:
    return [
        [forecast(case["weights"], case["freq"], case["horizon"], case["quantiles"], one) for one in case["series"]]
        for case in cases
    ]


if __name__ == "__main__":
    json.dump(reference(json.load(sys.stdin)), sys.stdout)
