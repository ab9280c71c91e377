"""The official tirex-2 library called plainly on one series at a time: the reference that the parity tests
(runtime/tests/test_tirex_2.py, test/models.tirex-2.test.ts) hold the worker to. It shares no code with
Horizon (runtime/tests/parity-tolerances.json says how far the worker may differ).

    runtime/.venv-core/bin/python runtime/tests/tirex_2_reference.py < cases.json

stdin: [{"weights": DIR, "model": "tirex-2", "horizon": H, "quantiles": [...], "joint"?: true,
         "series": [{"target": [...], "past_covariates"?: {name: [...]}, "future_covariates"?: {name: [...]}}]}]
         (null = missing, as on the wire; a future covariate's history is its past_covariates entry)
stdout: per case, per series {"mean": [...], "quantiles": {"0.1": [...], ...}}

As the tirex-2 README and its "Forecasting" and "Covariates" guides do: `load_model(DIR, device="cpu")`
(compiled as the library ships it: its ResidualBlock is `@torch.compile`), one
`TimeseriesType(target=(1, T), past_covariates=(n_p, T) or None, future_covariates=(n_f, T + H) or None)`
per series, float32, missing values as NaN, and `forecast([ts], prediction_length=H, output_type="numpy")`
with the library's other defaults. A covariate with future values is a future covariate (history and
future joined), one without is a past covariate, in the case's order. A joint case is one `TimeseriesType`
whose target rows are the case's series, shorter ones left-padded with NaN. `mean` is the 0.5 output
(index 4, the guides' median); requested levels between the nine are linear in the level (np.interp;
outside 0.1-0.9 the nearest) after sorting each step's levels.
"""

from __future__ import annotations

import json
import sys
from functools import cache

import numpy as np
import torch


@cache
def model(weights: str):
    from tirex2 import load_model

    return load_model(weights, device="cpu")


def as_array(values) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def as_rows(arrays: list[np.ndarray]):
    return torch.tensor(np.stack(arrays), dtype=torch.float32) if arrays else None


def one_series(series: dict):
    from tirex2 import TimeseriesType

    past = {name: as_array(v) for name, v in (series.get("past_covariates") or {}).items()}
    future = {name: as_array(v) for name, v in (series.get("future_covariates") or {}).items()}
    return TimeseriesType(
        target=as_rows([as_array(series["target"])]),
        past_covariates=as_rows([v for name, v in past.items() if name not in future]),
        future_covariates=as_rows([np.concatenate([past[name], v]) for name, v in future.items()]),
    )


def joint_series(case: dict):
    from tirex2 import TimeseriesType

    targets = [as_array(one["target"]) for one in case["series"]]
    longest = max(len(t) for t in targets)
    padded = [np.concatenate([np.full(longest - len(t), np.nan), t]) for t in targets]
    return TimeseriesType(target=as_rows(padded), past_covariates=None, future_covariates=None)


def answer(band: np.ndarray, trained: list[float], levels: list[float]) -> dict:
    """One target variate's (9, H) output as the wire shape."""
    ordered = np.sort(band, axis=0)
    rows = np.sort(np.array([[np.interp(q, trained, step) for step in ordered.T] for q in levels]).reshape(len(levels), -1), axis=0)
    return {"mean": band[trained.index(0.5)].tolist(), "quantiles": {repr(q): rows[i].tolist() for i, q in enumerate(levels)}}


def forecast(case: dict) -> list[dict]:
    network = model(case["weights"])
    trained = [round(float(q), 6) for q in network.quantiles]
    levels = sorted(float(q) for q in case["quantiles"])
    if case.get("joint"):
        (out,) = network.forecast([joint_series(case)], prediction_length=case["horizon"], output_type="numpy")
        return [answer(np.asarray(band, dtype=np.float64), trained, levels) for band in out]
    answers = []
    for series in case["series"]:
        (out,) = network.forecast([one_series(series)], prediction_length=case["horizon"], output_type="numpy")
        answers.append(answer(np.asarray(out[0], dtype=np.float64), trained, levels))
    return answers


def reference(cases: list[dict]) -> list[list[dict]]:
    return [forecast(case) for case in cases]


if __name__ == "__main__":
    json.dump(reference(json.load(sys.stdin)), sys.stdout)
