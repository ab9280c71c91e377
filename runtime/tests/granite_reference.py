"""IBM's granite-tsfm (0.3.11, import `tsfm_public`) called plainly on one series at a time: the reference that the
FlowState and PatchTST-FM tests (test/models.granite.test.ts) hold the worker to. It shares no code with Horizon
(runtime/tests/parity-tolerances.json says how far the worker may differ). Runs in the granite group's venv:

    runtime/.venv-granite/bin/python runtime/tests/granite_reference.py < cases.json

stdin: [{"weights": DIR, "model": "flowstate" | "patchtst-fm", "freq": "H"|"D"|"W"|"MS"|"Q"|"Y", "horizon": H,
         "quantiles": [...], "series": [{"target": [...]}]}]   (null = missing, as on the wire)
stdout: per case, per series {"mean": [...], "quantiles": {"0.1": [...], ...}}

FlowState, as its model card and the package's GIFT-Eval predictor call it: `FlowStateForPrediction.from_pretrained(DIR)`,
then `model(past_values, scale_factor=get_fixed_factor(freq), prediction_length=H, batch_first=True)` on the series as
a (1, time, 1) float32 tensor with NaN for missing values; `freq` is the alias the package's get_fixed_factor knows
for the API's frequency (monthly "M", yearly "A"). `mean` is its `prediction_outputs`, the levels its
`quantile_outputs` (0.1 ... 0.9).
PatchTST-FM: `PatchTSTFMForPrediction.from_pretrained(DIR)`, then `model(past_values=(1, time, 1), prediction_length=H)`;
`mean` is its `prediction_outputs`, the levels its `quantile_outputs` at the config's `quantile_levels` (0.01 ... 0.99).
Requested levels between two of the model's are linear in the level (np.interp; outside its range the nearest), and
each step's levels are sorted.
"""

from __future__ import annotations

import contextlib
import json
import sys
from functools import cache

import numpy as np
import torch

GET_FIXED_FACTOR_ALIAS = {"H": "H", "D": "D", "W": "W", "MS": "M", "Q": "Q", "Y": "A"}


@cache
def flowstate(weights: str):
    from tsfm_public import FlowStateForPrediction

    return FlowStateForPrediction.from_pretrained(weights).eval()


@cache
def patchtst_fm(weights: str):
    from tsfm_public import PatchTSTFMForPrediction

    return PatchTSTFMForPrediction.from_pretrained(weights).eval()


def as_tensor(values) -> torch.Tensor:
    array = np.array([np.nan if v is None else v for v in values], dtype=np.float32)
    return torch.from_numpy(array)[None, :, None]


def forecast(case: dict, series: dict) -> dict:
    horizon = case["horizon"]
    with torch.no_grad():
        if case["model"] == "flowstate":
            from tsfm_public.models.flowstate.utils.utils import get_fixed_factor

            model = flowstate(case["weights"])
            scale = get_fixed_factor(GET_FIXED_FACTOR_ALIAS[case["freq"]])
            output = model(as_tensor(series["target"]), scale_factor=scale, prediction_length=horizon, batch_first=True)
            trained = list(model.config.quantiles)
        else:
            model = patchtst_fm(case["weights"])
            output = model(past_values=as_tensor(series["target"]), prediction_length=horizon)
            trained = list(model.config.quantile_levels)
    mean = output.prediction_outputs[0, :, 0].double().numpy()
    ordered = np.sort(output.quantile_outputs[0, :, :, 0].double().numpy(), axis=0)  # (levels, H)
    levels = sorted(float(q) for q in case["quantiles"])
    rows = np.sort(np.array([[np.interp(q, trained, step) for step in ordered.T] for q in levels]).reshape(len(levels), -1), axis=0)
    return {"mean": mean.tolist(), "quantiles": {repr(q): rows[i].tolist() for i, q in enumerate(levels)}}


def reference(cases: list[dict]) -> list[list[dict]]:
    return [[forecast(case, one) for one in case["series"]] for case in cases]


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    with contextlib.redirect_stdout(sys.stderr):  # stdout is the answer
        answer = reference(cases)
    json.dump(answer, sys.stdout)
