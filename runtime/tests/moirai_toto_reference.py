"""The official Moirai-2 and Toto-2 libraries called directly on one series at a time: the reference
that the parity tests (runtime/tests/test_moirai_toto.py and test/models.moirai-toto.test.ts) hold the
worker to.

    runtime/.venv-core/bin/python runtime/tests/moirai_toto_reference.py < cases.json

stdin: [{"weights": DIR, "model": "moirai-2" | "toto-2" | "toto-2-ft", "horizon": H, "quantiles": [...],
         "context_length"?: 1680 (moirai-2; default the catalog's max_context),
         "series": [{"target": [...], "past_covariates"?: {name: [...]}}]}]   (null = missing)
stdout: per case, per series {"mean": [...], "quantiles": {"0.1": [...], ...}}

Only the official API is used: `Moirai2Module.from_pretrained` + `Moirai2Forecast(...).predict(past_target,
past_feat_dynamic_real)`, and `Toto2Model.from_pretrained` + `forecast(...)` (README call). The adapters'
documented choices on top: Moirai-2 gets 2+ covariates pre-padded by `padded_covariates` (the library's
padding rule, which its own code fails to apply to more than one column); Toto-2 gets its series
forward-filled by the library's `ffill_imputation`, masked where missing and left-padded with masked
zeros to a multiple of the patch size (`toto_inputs`, here for one series alone); mean = the 0.5 output,
each step sorted, requested levels interpolated by `quantiles.interpolate_levels`.
"""

from __future__ import annotations

import contextlib
import json
import sys
from functools import cache
from pathlib import Path

import numpy as np
import torch

from horizon_runtime.adapters.moirai_2 import padded_covariates
from horizon_runtime.adapters.toto_2 import toto_inputs
from horizon_runtime.catalog import load_catalog
from horizon_runtime.quantiles import interpolate_levels, quantile_key

CATALOG = Path(__file__).resolve().parents[2] / "catalog" / "models.json"


@cache
def moirai_module(weights: str):
    from uni2ts.model.moirai2 import Moirai2Module

    return Moirai2Module.from_pretrained(weights)


@cache
def toto_model(weights: str):
    from toto2 import Toto2Model

    return Toto2Model.from_pretrained(weights).eval()


def _values(values) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def moirai(weights: str, horizon: int, context_length: int, series: dict) -> tuple[tuple[float, ...], np.ndarray]:
    from uni2ts.model.moirai2 import Moirai2Forecast

    module = moirai_module(weights)
    covariates = [_values(v) for v in (series.get("past_covariates") or {}).values()]
    forecaster = Moirai2Forecast(
        module=module, prediction_length=horizon, context_length=context_length, target_dim=1,
        feat_dynamic_real_dim=0, past_feat_dynamic_real_dim=len(covariates),
    )
    block = [padded_covariates(np.column_stack(covariates), context_length)] if covariates else None
    out = forecaster.predict(past_target=[_values(series["target"])], past_feat_dynamic_real=block)
    return tuple(module.quantile_levels), out[0]


def toto(weights: str, horizon: int, series: dict) -> tuple[tuple[float, ...], np.ndarray]:
    model = toto_model(weights)
    values, mask = toto_inputs([_values(series["target"])], model.config.patch_size)
    inputs = {"target": torch.from_numpy(values), "target_mask": torch.from_numpy(mask), "series_ids": torch.zeros((1, 1), dtype=torch.long)}
    knots = model.forecast(inputs, horizon=horizon, decode_block_size=None, has_missing_values=True)
    return tuple(model.output_head.knots), knots[:, 0, 0, :].numpy()


def forecast(case: dict, series: dict) -> dict:
    if case["model"] == "moirai-2":
        context = case.get("context_length") or load_catalog(CATALOG).models["moirai-2"].sizes["small"].max_context
        trained, values = moirai(case["weights"], case["horizon"], context, series)
    else:
        trained, values = toto(case["weights"], case["horizon"], series)
    ordered = np.sort(np.asarray(values, dtype=np.float64), axis=0)
    levels = sorted(case["quantiles"])
    rows, _ = interpolate_levels(trained, ordered, tuple(levels))
    return {
        "mean": ordered[list(trained).index(0.5)].tolist(),
        "quantiles": {quantile_key(level): rows[i].tolist() for i, level in enumerate(levels)},
    }


def reference(cases: list[dict]) -> list[list[dict]]:
    return [[forecast(case, one) for one in case["series"]] for case in cases]


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    with contextlib.redirect_stdout(sys.stderr):  # the libraries print "Loading weights …"
        answer = reference(cases)
    json.dump(answer, sys.stdout)
