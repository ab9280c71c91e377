"""The official TimesFM APIs (timesfm 3.0.2) called plainly on one series at a time: the reference that the
parity tests (runtime/tests/test_timesfm.py, test/models.timesfm.test.ts) hold the worker to. It shares no
code with Horizon (runtime/tests/parity-tolerances.json says how far the worker may differ).

    runtime/.venv-core/bin/python runtime/tests/timesfm_reference.py < cases.json

stdin: [{"weights": DIR, "model": "timesfm-2" | "timesfm-3", "horizon": H, "quantiles": [...],
         "series": [{"target": [...], "past_covariates"?: {...}, "future_covariates"?: {...}}]}]
         (null = missing, as on the wire)
stdout: per case, per series {"mean": [...], "quantiles": {"0.1": [...], ...}}

TimesFM 2.5, as the model card of google/timesfm-2.5-200m-pytorch calls it: `TimesFM_2p5_200M_torch`,
`compile(ForecastConfig(max_context=1024, max_horizon=256, normalize_inputs=True,
use_continuous_quantile_head=True, force_flip_invariance=True, infer_is_positive=True,
fix_quantile_crossing=True))`, `forecast(horizon, inputs=[target])`; a longer series or horizon raises
max_context (to the series' length, within the 16384 of context + horizon) or max_horizon (to the horizon). Loading: the
library hard-codes the 200M architecture as the module class's `config`; a tiny test checkpoint states
its own in config.json (`timesfm_2p5_definition`), so the module is a subclass with that definition and
the weights go in through the library's `load_checkpoint(model.safetensors)`; the published checkpoint
(no definition) loads through `TimesFM_2p5_200M_torch.from_pretrained`.

TimesFM 3.0, as the timesfm README calls it: `TimesFM3Evaluator(ModelConfig(checkpoint_path=DIR, ...))` and
`predict_batch([target], horizon, return_quantiles=True, use_symmetric_averaging=False)` (its other
defaults: non-negative output for non-negative input, sorted quantiles), with a variable that has future
values as a past-and-future covariate (history + future), the others past-only, in the request's order.

`mean` is the library's point forecast (the median). Requested levels between the nine predicted ones are
linear in the level (np.interp; outside 0.1-0.9 the nearest), and each step's levels are sorted.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sys
from functools import cache
from pathlib import Path

import numpy as np
import torch

MODEL_CARD_CONTEXT, MODEL_CARD_HORIZON = 1024, 256
CONTEXT_LIMIT = 16384  # compile() refuses max_context + max_horizon beyond it (TimesFM_2p5_200M_Definition.context_limit)


def as_array(values) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def definition(raw: dict):
    """A TimesFM_2p5_200M_Definition from its JSON form (dataclasses.asdict of one)."""
    from timesfm import configs
    from timesfm.timesfm_2p5.timesfm_2p5_base import TimesFM_2p5_200M_Definition

    raw = dict(raw)
    blocks = {name: configs.ResidualBlockConfig(**raw.pop(name)) for name in ("tokenizer", "output_projection_point", "output_projection_quantiles")}
    stacked = dict(raw.pop("stacked_transformers"))
    stacked["transformer"] = configs.TransformerConfig(**stacked["transformer"])
    return TimesFM_2p5_200M_Definition(**blocks, stacked_transformers=configs.StackedTransformersConfig(**stacked), **raw)


@cache
def timesfm_2p5(weights: str):
    from timesfm.timesfm_2p5.timesfm_2p5_torch import TimesFM_2p5_200M_torch, TimesFM_2p5_200M_torch_module

    stated = json.loads((Path(weights) / "config.json").read_text()).get("timesfm_2p5_definition")
    if stated is None:
        return TimesFM_2p5_200M_torch.from_pretrained(weights, torch_compile=False, local_files_only=True)
    module_class = type("TinyTimesFM2p5Module", (TimesFM_2p5_200M_torch_module,), {"config": definition(stated)})
    model = TimesFM_2p5_200M_torch.__new__(TimesFM_2p5_200M_torch)  # its __init__ would build the 200M module
    model.model, model.torch_compile = module_class(), False
    model.model.device = torch.device("cpu")
    model.load_checkpoint(str(Path(weights) / "model.safetensors"))
    return model


@cache
def timesfm_3p0(weights: str):
    from timesfm3 import ModelConfig, TimesFM3Evaluator

    return TimesFM3Evaluator(ModelConfig(checkpoint_path=weights, per_core_batch_size=1, device="cpu", local_files_only=True))


def at_levels(trained: list[float], values: np.ndarray, levels: list[float]) -> np.ndarray:
    """values (horizon, len(trained)) -> (len(levels), horizon), sorted across levels at each step."""
    ordered = np.sort(np.asarray(values, dtype=np.float64), axis=1)
    rows = np.array([[np.interp(q, trained, step) for step in ordered] for q in levels]).reshape(len(levels), len(ordered))
    return np.sort(rows, axis=0)


def forecast(case: dict, series: dict) -> dict:
    import timesfm

    weights, horizon, levels = case["weights"], case["horizon"], sorted(float(q) for q in case["quantiles"])
    target = as_array(series["target"])
    if case["model"] == "timesfm-2":
        model = timesfm_2p5(weights)
        max_horizon = max(MODEL_CARD_HORIZON, horizon)
        max_context = min(max(MODEL_CARD_CONTEXT, len(target)), CONTEXT_LIMIT - -(-max_horizon // 128) * 128)  # compile rounds up to 128
        model.compile(timesfm.ForecastConfig(
            max_context=max_context, max_horizon=max_horizon, normalize_inputs=True,
            use_continuous_quantile_head=True, force_flip_invariance=True, infer_is_positive=True, fix_quantile_crossing=True,
        ))
        point, full = model.forecast(horizon, inputs=[target])
        mean, values, trained = point[0], full[0, :, 1:], list(model.model.config.quantiles)  # column 0: the mean head
    else:
        model = timesfm_3p0(weights)
        past = {name: as_array(v) for name, v in (series.get("past_covariates") or {}).items()}
        future = {name: as_array(v) for name, v in (series.get("future_covariates") or {}).items()}
        past_only = [values for name, values in past.items() if name not in future]
        past_future = [np.concatenate([past[name], values]) for name, values in future.items()]
        out = next(iter(model.predict_batch(
            [target], horizon=horizon, return_quantiles=True, use_symmetric_averaging=False,
            past_only_covariates=[np.stack(past_only) if past_only else None],
            past_future_covariates=[np.stack(past_future) if past_future else None],
        )))
        mean, values, trained = out.forecast, out.quantiles, list(model.config.quantiles)
    rows = at_levels(trained, values, levels)
    return {"mean": np.asarray(mean, dtype=np.float64).tolist(), "quantiles": {repr(q): rows[i].tolist() for i, q in enumerate(levels)}}


def reference(cases: list[dict]) -> list[list[dict]]:
    return [[forecast(case, one) for one in case["series"]] for case in cases]


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    with contextlib.redirect_stdout(sys.stderr):  # huggingface_hub prints "Loading weights from local directory"
        answer = reference(cases)
    json.dump(answer, sys.stdout)
