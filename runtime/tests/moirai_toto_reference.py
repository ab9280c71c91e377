"""The official Moirai-2 and Toto-2 libraries called plainly on one series at a time, through the GluonTS
predictors their READMEs use: the reference that the parity tests (runtime/tests/test_moirai_toto.py,
test/models.moirai-toto.test.ts) hold the worker to. It shares no code with Horizon
(runtime/tests/parity-tolerances.json says how far the worker may differ).

    runtime/.venv-core/bin/python runtime/tests/moirai_toto_reference.py < cases.json

stdin: [{"weights": DIR, "model": "moirai-2" | "toto-2" | "toto-2-ft", "horizon": H, "quantiles": [...],
         "series": [{"target": [...], "past_covariates"?: {name: [...]}}]}]   (null = missing)
stdout: per case, per series {"mean": [...], "quantiles": {"0.1": [...], ...}}

Each series is a one-entry GluonTS ListDataset (`target` with NaN where missing; Moirai-2's past covariates
as `past_feat_dynamic_real`, one row per covariate), and the library's own predictor does the rest: its
transforms mark and impute missing values, its instance splitter cuts or left-pads the context.
- Moirai-2, as the uni2ts README: `Moirai2Forecast(module=Moirai2Module.from_pretrained(DIR),
  prediction_length=H, context_length=1680, target_dim=1, feat_dynamic_real_dim=0,
  past_feat_dynamic_real_dim=k).create_predictor(batch_size=1).predict(dataset)`.
- Toto-2: `Toto2GluonTSModel(Toto2Model.from_pretrained(DIR), Toto2GluonTSModelConfig(prediction_length=H,
  context_length=4096, target_dim=1, scaler_fallback_min_obs=0, quantile_real_cap_k=0))` and its
  `create_predictor(batch_size=1)`; the context is the 4096 steps the checkpoints were trained with, and the
  two knots off are the defaults of `Toto2Model.forecast`, the call of the toto-2 README.
Both forecasts are the nine quantiles 0.1 … 0.9; `mean` is the 0.5 one after each step is sorted, and
requested levels are linear in the level between them (np.interp; outside 0.1-0.9 the nearest).
"""

from __future__ import annotations

import contextlib
import json
import sys
from functools import cache

import numpy as np
import pandas as pd

MOIRAI_CONTEXT = 1680  # the uni2ts README's context_length for Moirai-2
TOTO_CONTEXT = 4096  # Toto-2's training context
TRAINED = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]


def as_array(values) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


@cache
def moirai_module(weights: str):
    from uni2ts.model.moirai2 import Moirai2Module

    return Moirai2Module.from_pretrained(weights)


@cache
def toto_model(weights: str):
    from toto2 import Toto2Model

    return Toto2Model.from_pretrained(weights).eval()


def predictor(case: dict, covariates: int):
    horizon = case["horizon"]
    if case["model"] == "moirai-2":
        from uni2ts.model.moirai2 import Moirai2Forecast

        model = Moirai2Forecast(module=moirai_module(case["weights"]), prediction_length=horizon, context_length=MOIRAI_CONTEXT,
                                target_dim=1, feat_dynamic_real_dim=0, past_feat_dynamic_real_dim=covariates)
    else:
        from toto2 import Toto2GluonTSModel, Toto2GluonTSModelConfig

        model = Toto2GluonTSModel(toto_model(case["weights"]), Toto2GluonTSModelConfig(
            prediction_length=horizon, context_length=TOTO_CONTEXT, target_dim=1, scaler_fallback_min_obs=0, quantile_real_cap_k=0))
    return model.create_predictor(batch_size=1, device="cpu")


def forecast(case: dict, series: dict) -> dict:
    from gluonts.dataset.common import ListDataset

    entry = {"start": pd.Period("2001-01-01", freq="D"), "target": as_array(series["target"])}
    covariates = [as_array(v) for v in (series.get("past_covariates") or {}).values()]
    if covariates:
        entry["past_feat_dynamic_real"] = np.stack(covariates)
    result = next(iter(predictor(case, len(covariates)).predict(ListDataset([entry], freq="D"))))
    values = np.stack([result.quantile(q) for q in TRAINED]).astype(np.float64)  # (9, horizon)
    ordered = np.sort(values, axis=0)
    levels = sorted(float(q) for q in case["quantiles"])
    rows = np.sort(np.array([[np.interp(q, TRAINED, step) for step in ordered.T] for q in levels]).reshape(len(levels), -1), axis=0)
    return {"mean": ordered[TRAINED.index(0.5)].tolist(), "quantiles": {repr(q): rows[i].tolist() for i, q in enumerate(levels)}}


def reference(cases: list[dict]) -> list[list[dict]]:
    return [[forecast(case, one) for one in case["series"]] for case in cases]


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    with contextlib.redirect_stdout(sys.stderr):  # the libraries print "Loading weights …"
        answer = reference(cases)
    json.dump(answer, sys.stdout)
