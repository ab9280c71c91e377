"""The official TabPFN-TS pipeline called plainly on one series at a time: the reference that the parity
tests (runtime/tests/test_tabpfn_ts.py, test/models.tabpfn-ts.test.ts) hold the worker to. It shares no
code with Horizon (runtime/tests/parity-tolerances.json says how far the worker may differ).

    runtime/.venv-core/bin/python runtime/tests/tabpfn_ts_reference.py < cases.json

stdin: [{"weights": CHECKPOINT_FILE, "horizon": H, "quantiles": [...],
         "series": [{"target": [...], "index": [dates], "forecast_index": [dates],
                     "past_covariates"?: {...}, "future_covariates"?: {...}}]}]
         (null = missing, as on the wire; dates as the API writes them, ISO 8601)
stdout: per case, per series {"mean": [...], "quantiles": {"0.1": [...], ...}}

As the tabpfn-time-series README: `TabPFNTSPipeline(tabpfn_mode=TabPFNMode.LOCAL, tabpfn_model_config=
{"model_path": CHECKPOINT_FILE, "device": "cpu"})` with its other defaults, and `predict_df(context_df,
future_df=future_df, quantiles=levels)`: context_df holds the series' dates (`timestamp`), its values
(`target`, NaN where missing: the pipeline drops those rows) and each known-future covariate's history;
future_df the horizon's dates and the covariates' future values. `mean` is the pipeline's `target` column
(its median); each step's levels are sorted.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import warnings
from functools import cache

os.environ["TABPFN_DISABLE_TELEMETRY"] = "1"  # before tabpfn is imported: no usage events from tests

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402


@cache
def pipeline(weights: str):
    from tabpfn_time_series import TabPFNMode, TabPFNTSPipeline

    return TabPFNTSPipeline(tabpfn_mode=TabPFNMode.LOCAL, tabpfn_model_config={"model_path": weights, "device": "cpu"})


def as_array(values) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def dates(values) -> pd.DatetimeIndex:
    return pd.to_datetime(list(values), format="ISO8601", utc=True).tz_localize(None)


def forecast(case: dict, series: dict) -> dict:
    context_df = pd.DataFrame({"timestamp": dates(series["index"]), "target": as_array(series["target"])})
    future_df = pd.DataFrame({"timestamp": dates(series["forecast_index"])})
    for name, values in (series.get("future_covariates") or {}).items():
        context_df[name] = as_array(series["past_covariates"][name])
        future_df[name] = as_array(values)
    levels = sorted(float(q) for q in case["quantiles"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "running on CPU", one per call
        result = pipeline(case["weights"]).predict_df(context_df, future_df=future_df, quantiles=levels)
    rows = np.sort(np.stack([result[q].to_numpy(dtype=np.float64) for q in levels]), axis=0)
    return {"mean": result["target"].to_numpy(dtype=np.float64).tolist(), "quantiles": {repr(q): rows[i].tolist() for i, q in enumerate(levels)}}


def reference(cases: list[dict]) -> list[list[dict]]:
    return [[forecast(case, one) for one in case["series"]] for case in cases]


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    with contextlib.redirect_stdout(sys.stderr):  # stdout carries only the answer
        answer = reference(cases)
    json.dump(answer, sys.stdout)
